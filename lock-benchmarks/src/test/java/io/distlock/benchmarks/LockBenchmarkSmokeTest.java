package io.distlock.benchmarks;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs every throughput scenario briefly, in two rounds, against a fixture-started Redis: each
 * measures something, and both reports are made of it, the HTML one written as files. The watchdog
 * scenario has its own test, {@link WatchdogScenarioTest}.
 */
class LockBenchmarkSmokeTest {

    private static final List<Scenario> THROUGHPUT = Arrays.stream(Scenario.values()).filter(Scenario::throughput)
            .toList();

    @Test
    @Timeout(90)
    void everyScenarioMeasuresThroughputInEveryRound(@TempDir Path temp) throws InterruptedException, IOException {
        Path reportDir = temp.resolve("report");
        BenchmarkOptions options = BenchmarkOptions.parse("--threads=4", "--rounds=2", "--warmup-seconds=0.1",
                "--seconds=0.2", "--scenarios=" + THROUGHPUT.stream().map(Scenario::cliName)
                        .collect(Collectors.joining(",")), "--report-dir=" + reportDir);
        ByteArrayOutputStream progress = new ByteArrayOutputStream();

        BenchmarkReport report = new BenchmarkRun(options,
                new PrintStream(progress, true, StandardCharsets.UTF_8)).execute();

        assertThat(report.results()).extracting(ScenarioResult::scenario).containsExactlyElementsOf(THROUGHPUT);
        assertThat(report.watchdog()).isEmpty();
        for (ScenarioResult result : report.results()) {
            assertThat(result.rounds()).as("%s rounds", result.scenario()).hasSize(2);
            for (RoundResult round : result.rounds()) {
                assertThat(round.distlock().perSecond()).as("%s distlock", result.scenario()).isPositive();
                assertThat(round.redisson().perSecond()).as("%s redisson", result.scenario()).isPositive();
                assertThat(round.ceiling().perSecond()).as("%s ceiling", result.scenario()).isPositive();
            }
            assertThat(result.spread(RoundResult::distlockPerRedisson).median()).isPositive();
            assertThat(result.spread(RoundResult::distlockPerCeiling).median()).isPositive();
            assertThat(result.latency(RoundResult::ceiling)).isPresent();
        }
        assertThat(report.result(Scenario.CONTENDED).orElseThrow().latency(RoundResult::distlock)).isPresent();
        assertThat(report.result(Scenario.CONTENDED).orElseThrow().latency(RoundResult::redisson)).isPresent();
        assertThat(report.result(Scenario.SINGLE).orElseThrow().latency(RoundResult::redisson)).isPresent();
        assertThat(report.result(Scenario.FAIR).orElseThrow().latency(RoundResult::distlock)).isPresent();

        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        new ReportPrinter(new PrintStream(printed, true, StandardCharsets.UTF_8)).print(report);
        assertThat(printed.toString(StandardCharsets.UTF_8))
                .contains("| uncontended (4 threads) |", "| contended (4 threads) |", "| single (1 thread) |")
                .contains("| fair (4 threads) |", "| read (4 threads) |", "| multi (4 threads) |")
                .contains("| semaphore (4 threads) |")
                .containsPattern("(PASS|MISS): \\(3\\) fair: distlock >= 1x redisson")
                .contains("- uncontended r1: ", "- contended r2: ", "- single r2: ")
                .containsPattern("(PASS|MISS): \\(2\\) contended: distlock p99");

        Path page = ReportDirectory.create(options.reportDir()).write(HtmlReport.of(report));
        assertThat(page).isEqualTo(reportDir.resolve("index.html"));
        List<String> links = XmlDocuments.elements(XmlDocuments.parse(Files.readString(page, StandardCharsets.UTF_8)),
                "a").stream().map(link -> link.getAttribute("href")).toList();
        assertThat(links).containsExactly("throughput.svg", "latency-contended.svg", "latency-fair.svg",
                "latency-semaphore.svg", "latency-single.svg");
        for (String chart : links) {
            Element svg = XmlDocuments.parse(Files.readString(reportDir.resolve(chart), StandardCharsets.UTF_8))
                    .getDocumentElement();
            assertThat(svg.getLocalName()).as(chart).isEqualTo("svg");
        }
        String throughput = Files.readString(reportDir.resolve("throughput.svg"), StandardCharsets.UTF_8);
        for (Scenario scenario : THROUGHPUT) {
            assertThat(throughput).as("a group of bars per scenario").contains(">" + scenario.cliName() + ", ");
        }
    }
}

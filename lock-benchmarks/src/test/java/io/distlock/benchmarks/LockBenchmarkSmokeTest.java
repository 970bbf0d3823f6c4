package io.distlock.benchmarks;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** Runs every scenario briefly against a fixture-started Redis: each measures something. */
class LockBenchmarkSmokeTest {

    @Test
    @Timeout(120)
    void everyScenarioMeasuresThroughput() throws InterruptedException {
        BenchmarkOptions options = BenchmarkOptions.parse("--threads=4", "--warmup-seconds=0.2", "--seconds=0.2");
        ByteArrayOutputStream progress = new ByteArrayOutputStream();

        BenchmarkReport report = new BenchmarkRun(options,
                new PrintStream(progress, true, StandardCharsets.UTF_8)).execute();

        assertThat(report.results()).extracting(ScenarioResult::scenario).containsExactly(Scenario.values());
        for (ScenarioResult result : report.results()) {
            assertThat(result.distlock().perSecond()).as("%s distlock", result.scenario()).isPositive();
            assertThat(result.redisson().perSecond()).as("%s redisson", result.scenario()).isPositive();
            assertThat(result.ceiling().perSecond()).as("%s ceiling", result.scenario()).isPositive();
        }
        assertThat(report.result(Scenario.CONTENDED).orElseThrow().distlock().latency()).isPresent();
        assertThat(report.result(Scenario.SINGLE).orElseThrow().redisson().latency()).isPresent();

        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        new ReportPrinter(new PrintStream(printed, true, StandardCharsets.UTF_8)).print(report);
        assertThat(printed.toString(StandardCharsets.UTF_8))
                .contains("| uncontended (4 threads) |", "| contended (4 threads) |", "| single (1 thread) |")
                .containsPattern("(PASS|MISS): \\(2\\) contended: distlock p99");
    }
}

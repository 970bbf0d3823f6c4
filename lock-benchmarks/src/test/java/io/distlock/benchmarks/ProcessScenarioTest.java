package io.distlock.benchmarks;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the processes scenario small against a fixture-started Redis: 2 child JVMs of 2 threads,
 * one round of one lock name and of 8, for both backends, so the child protocol, the merge and the
 * reports (text, and HTML with its charts) cannot rot. The targets are printed, not asserted: a
 * short run on a shared machine says little about them.
 */
class ProcessScenarioTest {

    @Test
    @Timeout(300)
    void bothBackendsAreMeasuredAcrossChildJvmsForOneAndEightNames(@TempDir Path reportDir)
            throws InterruptedException {
        BenchmarkOptions options = BenchmarkOptions.parse("--scenarios=processes", "--processes=2",
                "--process-threads=2", "--rounds=1", "--process-warmup-seconds=0.5", "--seconds=1");
        ByteArrayOutputStream progress = new ByteArrayOutputStream();

        BenchmarkReport report = new BenchmarkRun(options,
                new PrintStream(progress, true, StandardCharsets.UTF_8)).execute();

        assertThat(report.results()).as("no throughput scenario was asked for").isEmpty();
        ProcessResult result = report.processes().orElseThrow();
        assertThat(result.cases()).extracting(ProcessCase::names).containsExactly(1, ProcessRun.SPREAD_NAMES);
        for (ProcessCase measured : result.cases()) {
            assertThat(measured.rounds()).hasSize(1);
            ProcessRound round = measured.rounds().get(0);
            for (ProcessMeasurement backend : new ProcessMeasurement[] {round.distlock(), round.redisson()}) {
                String what = backend.backend() + ", " + measured.label();
                assertThat(backend.acquisitions()).as(what).isPositive();
                assertThat(backend.perProcess()).as(what + ": every JVM got the lock").hasSize(2)
                        .doesNotContain(0L);
                assertThat(IntStream.range(0, 2).mapToDouble(backend::sharePercent).sum()).as(what)
                        .isCloseTo(100.0, org.assertj.core.data.Offset.offset(1e-6));
                assertThat(backend.longestStreak()).as(what).isBetween(1L, backend.acquisitions());
            }
        }

        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        new ReportPrinter(new PrintStream(printed, true, StandardCharsets.UTF_8)).print(report);
        assertThat(printed.toString(StandardCharsets.UTF_8))
                .contains("## processes: 2 JVMs x 2 threads each", "### 1 lock name", "### 8 lock names")
                .contains("| hand-offs to another JVM/s |", "| longest same-JVM streak (acquisitions) |")
                .containsPattern("(PASS|MISS): processes, hot lock: no JVM keeps it for more than 100")
                .containsPattern("(PASS|MISS): processes, 8 lock names: distlock >= 2x redisson");
        assertThat(progress.toString(StandardCharsets.UTF_8)).contains("processes-1-r1 distlock", "processes-8-r1 redisson");

        ReportDirectory.create(reportDir).write(HtmlReport.of(report));
        assertThat(reportDir.resolve("index.html")).isRegularFile();
        assertThat(reportDir.resolve("processes-throughput.svg")).isRegularFile();
        assertThat(reportDir.resolve("processes-wait-1-lock-name.svg")).isRegularFile();
        assertThat(reportDir.resolve("processes-wait-8-lock-names.svg")).isRegularFile();
    }
}

package io.distlock.benchmarks;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** The text report of hand-made results ({@link SampleReports}): the numbers the HTML report's charts show too. */
class ReportPrinterTest {

    @Test
    void printsMediansMedianRatiosAndTheLatencyOfEveryScenarioThatRecordsIt() {
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        new ReportPrinter(new PrintStream(text, true, StandardCharsets.UTF_8)).print(SampleReports.full());

        assertThat(text.toString(StandardCharsets.UTF_8))
                .contains("| uncontended (16 threads) | pairs/s | 2,000 | 1,000 | 2.50x | 1.00x-4.00x | 6,000 |")
                .contains("- contended (16 threads; latency as the scenario says above): "
                        + "distlock 200.0 / 2000.0; redisson 400.0 / 4000.0")
                .contains("- fair (16 threads; latency as the scenario says above): "
                        + "distlock 200.0 / 2000.0; redisson 400.0 / 4000.0")
                .contains("- single (1 thread; latency as the scenario says above): "
                        + "distlock 200.0 / 2000.0; redisson 400.0 / 4000.0")
                .doesNotContain("- uncontended (16 threads; latency");
    }
}

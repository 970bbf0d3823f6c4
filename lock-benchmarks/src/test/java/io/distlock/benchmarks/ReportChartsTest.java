package io.distlock.benchmarks;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The charts' numbers are the medians the text report prints, on hand-made results ({@link SampleReports}). */
@Timeout(10)
class ReportChartsTest {

    @Test
    void throughputHasOneGroupPerScenarioWithTheMediansOfDistlockRedissonAndTheCeiling() {
        List<ScenarioResult> results = List.of(SampleReports.throughput(Scenario.UNCONTENDED),
                SampleReports.throughput(Scenario.SINGLE));

        BarChart chart = ReportCharts.throughput(results);

        assertThat(chart.series()).containsExactly("distlock", "redisson", "ceiling");
        assertThat(chart.groups()).extracting(BarChart.Group::label).containsExactly(
                "uncontended, 16 threads, pairs/s: distlock/redisson 2.50x",
                "single, 1 thread, pairs/s: distlock/redisson 2.50x");
        for (BarChart.Group group : chart.groups()) {
            assertThat(group.bars()).containsExactly(new BarChart.Bar(2_000, "2,000"),
                    new BarChart.Bar(1_000, "1,000"), new BarChart.Bar(6_000, "6,000"));
        }
    }

    @Test
    void latencyShowsTheMedianP50AndP99InMicrosecondsOfScenariosThatRecordIt() {
        BarChart chart = ReportCharts.latency(SampleReports.throughput(Scenario.CONTENDED)).orElseThrow();

        assertThat(chart.title()).isEqualTo("Latency in µs: contended, 16 threads");
        assertThat(chart.subtitle()).startsWith(Scenario.CONTENDED.description());
        assertThat(chart.series()).containsExactly("distlock", "redisson");
        assertThat(chart.groups()).containsExactly(
                new BarChart.Group("p50", List.of(new BarChart.Bar(200, "200.0 µs"),
                        new BarChart.Bar(400, "400.0 µs"))),
                new BarChart.Group("p99", List.of(new BarChart.Bar(2_000, "2,000.0 µs"),
                        new BarChart.Bar(4_000, "4,000.0 µs"))));
        assertThat(ReportCharts.latency(SampleReports.throughput(Scenario.UNCONTENDED))).isEmpty();
    }

    @Test
    void processThroughputHasOneGroupPerCaseWithAcquisitionsPerSecond() {
        BarChart chart = ReportCharts.processThroughput(SampleReports.processes());

        assertThat(chart.title()).isEqualTo("Acquisitions per second: processes, 3 JVMs x 4 threads");
        assertThat(chart.groups()).containsExactly(
                new BarChart.Group("1 lock name: distlock/redisson 5.00x",
                        List.of(new BarChart.Bar(3_000, "3,000"), new BarChart.Bar(700, "700"))),
                new BarChart.Group("8 lock names: distlock/redisson 2.00x",
                        List.of(new BarChart.Bar(4_000, "4,000"), new BarChart.Bar(1_600, "1,600"))));
    }

    @Test
    void processWaitsShowP50P99AndTheLongestWaitInMilliseconds() {
        ProcessResult result = SampleReports.processes();

        BarChart chart = ReportCharts.processWaits(result.options(), result.cases().get(0));

        assertThat(chart.title()).isEqualTo("Time inside lock() in ms: processes, 3 JVMs x 4 threads, 1 lock name");
        assertThat(chart.groups()).containsExactly(
                new BarChart.Group("p50", List.of(new BarChart.Bar(2.5, "2.50 ms"), new BarChart.Bar(5, "5.00 ms"))),
                new BarChart.Group("p99", List.of(new BarChart.Bar(48, "48.00 ms"),
                        new BarChart.Bar(126, "126.00 ms"))),
                new BarChart.Group("max", List.of(new BarChart.Bar(155, "155.0 ms"),
                        new BarChart.Bar(218, "218.0 ms"))));
    }
}

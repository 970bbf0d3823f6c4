package io.distlock.benchmarks;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * The charts of the HTML report, from the same medians over rounds that the text report prints
 * ({@link ReportPrinter}, {@link ProcessPrinter}): distlock next to Redisson, and in the throughput
 * chart the EVALSHA ceiling of the same round.
 */
final class ReportCharts {

    private static final List<String> BACKENDS = List.of("distlock", "redisson");

    private ReportCharts() {
    }

    /**
     * @param results the throughput scenarios run, at least one
     * @return one group per scenario: distlock's, Redisson's and the ceiling's operations per second
     */
    static BarChart throughput(List<ScenarioResult> results) {
        List<BarChart.Group> groups = results.stream().map(result -> new BarChart.Group(
                String.format(Locale.ROOT, "%s, %s, %s: distlock/redisson %.2fx", result.scenario().cliName(),
                        plural(result.threads(), "thread"), result.scenario().unit(),
                        result.spread(RoundResult::distlockPerRedisson).median()),
                List.of(count(result.medianPerSecond(RoundResult::distlock)),
                        count(result.medianPerSecond(RoundResult::redisson)),
                        count(result.spread(RoundResult::ceilingPairsPerSecond).median())))).toList();
        return new BarChart("Operations per second: throughput scenarios",
                "median over rounds, in each scenario's unit; ratio = median of the per-round ratios; "
                        + "ceiling = raw EVALSHA round trips/s / 2",
                List.of("distlock", "redisson", "ceiling"), groups);
    }

    /**
     * @param result a throughput scenario's rounds
     * @return distlock's and Redisson's p50 and p99 latency in microseconds, if both recorded latency in
     *         every round
     */
    static Optional<BarChart> latency(ScenarioResult result) {
        Optional<MedianLatency> ours = result.latency(RoundResult::distlock);
        Optional<MedianLatency> theirs = result.latency(RoundResult::redisson);
        if (ours.isEmpty() || theirs.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new BarChart(
                "Latency in µs: " + result.scenario().cliName() + ", " + plural(result.threads(), "thread"),
                result.scenario().description() + "; median over rounds of each round's percentile", BACKENDS,
                List.of(pair("p50", "%,.1f µs", ours.get().p50Micros(), theirs.get().p50Micros()),
                        pair("p99", "%,.1f µs", ours.get().p99Micros(), theirs.get().p99Micros()))));
    }

    /**
     * @param result the processes scenario's measurements
     * @return one group per case: distlock's and Redisson's acquisitions per second, all JVMs together
     */
    static BarChart processThroughput(ProcessResult result) {
        List<BarChart.Group> groups = result.cases().stream().map(measured -> perBackend(measured,
                String.format(Locale.ROOT, "%s: distlock/redisson %.2fx", measured.label(),
                        measured.spread(ProcessRound::throughputRatio).median()),
                "%,.0f", ProcessMeasurement::acquisitionsPerSecond)).toList();
        return new BarChart("Acquisitions per second: processes, " + shape(result.options()),
                "all JVMs together, median over rounds; ratio = median of the per-round ratios", BACKENDS, groups);
    }

    /**
     * @param options  the child JVMs of the processes scenario
     * @param measured one case of it
     * @return distlock's and Redisson's p50, p99 and longest time inside {@code lock()} in milliseconds
     */
    static BarChart processWaits(ProcessOptions options, ProcessCase measured) {
        return new BarChart("Time inside lock() in ms: processes, " + shape(options) + ", " + measured.label(),
                "all acquisitions of all JVMs of a round; median over rounds", BACKENDS, List.of(
                perBackend(measured, "p50", "%,.2f ms", ProcessMeasurement::p50WaitMillis),
                perBackend(measured, "p99", "%,.2f ms", ProcessMeasurement::p99WaitMillis),
                perBackend(measured, "max", "%,.1f ms", ProcessMeasurement::maxWaitMillis)));
    }

    private static String shape(ProcessOptions options) {
        return options.processes() + " JVMs x " + options.threads() + " threads";
    }

    private static BarChart.Bar count(double value) {
        return new BarChart.Bar(value, String.format(Locale.ROOT, "%,.0f", value));
    }

    private static BarChart.Group pair(String label, String format, double ours, double theirs) {
        return new BarChart.Group(label, List.of(new BarChart.Bar(ours, String.format(Locale.ROOT, format, ours)),
                new BarChart.Bar(theirs, String.format(Locale.ROOT, format, theirs))));
    }

    private static BarChart.Group perBackend(ProcessCase measured, String label, String format,
                                             ToDoubleFunction<ProcessMeasurement> metric) {
        return pair(label, format, measured.spread(ProcessRound::distlock, metric).median(),
                measured.spread(ProcessRound::redisson, metric).median());
    }

    /**
     * @param count how many
     * @param noun  of what, singular
     * @return e.g. {@code "1 thread"}, {@code "16 threads"}
     */
    static String plural(int count, String noun) {
        return count + " " + noun + (count == 1 ? "" : "s");
    }
}

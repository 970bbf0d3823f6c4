package io.distlock.benchmarks;

import java.io.PrintStream;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** Prints a {@link BenchmarkReport} as markdown: header, throughput table, latencies, targets. */
final class ReportPrinter {

    private final PrintStream out;

    /** @param out where the report goes */
    ReportPrinter(PrintStream out) {
        this.out = out;
    }

    /** @param report the run's measurements */
    void print(BenchmarkReport report) {
        printHeader(report.environment());
        printThroughput(report.results());
        printLatencies(report);
        printTargets(Targets.evaluate(report));
        out.flush();
    }

    private void printHeader(Environment env) {
        out.println("# distlock vs Redisson lock benchmark");
        out.println();
        line("- Redis: %s (%s)", env.redisVersion(), env.redisLocation());
        line("- JVM: %s, %d cores", env.jvm(), env.cores());
        line("- Clients: %s", env.clients());
        line("- Threads: %d (single: 1); warm-up %s s and measurement %s s per implementation and scenario; "
                + "distlock and Redisson alternate within each scenario", env.threads(), seconds(env.warmup()),
                seconds(env.measurement()));
        out.println();
    }

    private void printThroughput(List<ScenarioResult> results) {
        out.println("| scenario | unit | distlock | redisson | distlock/redisson | ceiling | distlock/ceiling |");
        out.println("|---|---|--:|--:|--:|--:|--:|");
        for (ScenarioResult result : results) {
            double ours = result.distlock().perSecond();
            double theirs = result.redisson().perSecond();
            double ceiling = result.ceilingPairsPerSecond();
            line("| %s (%d thread%s) | %s | %,.0f | %,.0f | %.2fx | %,.0f | %.2fx |", result.scenario().cliName(),
                    result.threads(), result.threads() == 1 ? "" : "s", result.scenario().unit(), ours, theirs,
                    ours / theirs, ceiling, ours / ceiling);
        }
        out.println();
        for (ScenarioResult result : results) {
            line("- %s: %s", result.scenario().cliName(), result.scenario().description());
        }
        out.println("- ceiling = EVALSHA round trips/s of `return 1` through Lettuce on one shared connection with the "
                + "scenario's thread count, divided by 2 (lock + unlock = two round trips)");
        out.println();
    }

    private void printLatencies(BenchmarkReport report) {
        out.println("Latency in microseconds, p50 / p99:");
        report.result(Scenario.CONTENDED).ifPresent(result ->
                line("- contended, time inside lock() (%d threads): distlock %s; redisson %s", result.threads(),
                        percentiles(result.distlock()), percentiles(result.redisson())));
        report.result(Scenario.SINGLE).ifPresent(result ->
                line("- single, one lock+unlock pair (1 thread): distlock %s; redisson %s",
                        percentiles(result.distlock()), percentiles(result.redisson())));
        Map<Integer, Measurement> ceilings = new TreeMap<>(Comparator.reverseOrder());
        report.results().forEach(result -> ceilings.put(result.threads(), result.ceiling()));
        ceilings.forEach((threads, ceiling) ->
                line("- ceiling, one EVALSHA round trip (%d thread%s): %s (a lock+unlock pair needs two)", threads,
                        threads == 1 ? "" : "s", percentiles(ceiling)));
        out.println();
    }

    private void printTargets(List<TargetCheck> checks) {
        if (checks.isEmpty()) {
            return;
        }
        out.println("Issue targets:");
        for (TargetCheck check : checks) {
            line("- %s: %s (measured %s)", check.verdict(), check.target(), check.actual());
        }
    }

    private static String percentiles(Measurement measurement) {
        return measurement.latency()
                .map(latency -> String.format(Locale.ROOT, "%.1f / %.1f", latency.p50Micros(), latency.p99Micros()))
                .orElse("n/a");
    }

    private static String seconds(Duration duration) {
        return BigDecimal.valueOf(duration.toNanos(), 9).stripTrailingZeros().toPlainString();
    }

    private void line(String format, Object... args) {
        out.println(String.format(Locale.ROOT, format, args));
    }
}

package io.distlock.benchmarks;

import java.io.PrintStream;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Prints a {@link BenchmarkReport} as markdown: header, summary table over rounds, one line per
 * round, latencies (of the throughput scenarios run), the watchdog and processes sections (if run),
 * targets.
 */
final class ReportPrinter {

    private final PrintStream out;

    /** @param out where the report goes */
    ReportPrinter(PrintStream out) {
        this.out = out;
    }

    /** @param report the run's measurements */
    void print(BenchmarkReport report) {
        printHeader(report.environment(), !report.results().isEmpty());
        if (!report.results().isEmpty()) {
            printSummary(report.results());
            printRounds(report.results());
            printLatencies(report);
        }
        report.watchdog().ifPresent(new WatchdogPrinter(out)::print);
        report.processes().ifPresent(new ProcessPrinter(out)::print);
        printTargets(Targets.evaluate(report));
        out.flush();
    }

    private void printHeader(Environment env, boolean throughput) {
        out.println("# distlock vs Redisson lock benchmark");
        out.println();
        line("- Run: started %s, commit %s", env.started(), env.commit());
        line("- Redis: %s (%s)", env.redisVersion(), env.redisLocation());
        line("- JVM: %s, %d cores", env.jvm(), env.cores());
        line("- Clients: %s", env.clients());
        if (throughput) {
            line("- Threads: %d (single: 1); %s per scenario, each measuring distlock, then Redisson, then the "
                    + "ceiling with the same thread count, back to back; warm-up %s s before every measurement, "
                    + "measurement %s s", env.threads(), ReportCharts.plural(env.rounds(), "round"),
                    seconds(env.warmup()), seconds(env.measurement()));
            out.println("- Summary over rounds: throughputs are medians; ratios are medians of the per-round ratios "
                    + "(not ratios of the medians); range = lowest-highest per-round distlock/redisson; latencies are "
                    + "the median of the rounds' p50s and the median of the rounds' p99s");
        }
        out.println();
    }

    private void printSummary(List<ScenarioResult> results) {
        out.println("| scenario | unit | distlock | redisson | distlock/redisson | range | ceiling | distlock/ceiling |");
        out.println("|---|---|--:|--:|--:|--:|--:|--:|");
        for (ScenarioResult result : results) {
            Spread perRedisson = result.spread(RoundResult::distlockPerRedisson);
            line("| %s (%s) | %s | %,.0f | %,.0f | %.2fx | %.2fx-%.2fx | %,.0f | %.2fx |",
                    result.scenario().cliName(), ReportCharts.plural(result.threads(), "thread"),
                    result.scenario().unit(), result.medianPerSecond(RoundResult::distlock),
                    result.medianPerSecond(RoundResult::redisson), perRedisson.median(),
                    perRedisson.min(), perRedisson.max(), result.spread(RoundResult::ceilingPairsPerSecond).median(),
                    result.spread(RoundResult::distlockPerCeiling).median());
        }
        out.println();
        for (ScenarioResult result : results) {
            line("- %s: %s", result.scenario().cliName(), result.scenario().description());
        }
        out.println("- ceiling = " + ScriptCeiling.DESCRIPTION);
        out.println();
    }

    private void printRounds(List<ScenarioResult> results) {
        out.println("Per round (throughput in the scenario's unit, ceiling in pairs/s, p99 in microseconds):");
        for (ScenarioResult result : results) {
            for (int i = 0; i < result.rounds().size(); i++) {
                out.println(RoundLine.format(result.scenario(), i + 1, result.rounds().get(i)));
            }
        }
        out.println();
    }

    private void printLatencies(BenchmarkReport report) {
        out.println("Latency in microseconds, p50 / p99 (medians over rounds):");
        for (ScenarioResult result : report.results()) {
            Optional<MedianLatency> ours = result.latency(RoundResult::distlock);
            Optional<MedianLatency> theirs = result.latency(RoundResult::redisson);
            if (ours.isPresent() || theirs.isPresent()) {
                line("- %s (%s; latency as the scenario says above): distlock %s; redisson %s",
                        result.scenario().cliName(), ReportCharts.plural(result.threads(), "thread"),
                        percentiles(ours), percentiles(theirs));
            }
        }
        for (ScenarioResult result : report.results()) {
            line("- ceiling of %s, one EVALSHA round trip (%s): %s (a lock+unlock pair needs two)",
                    result.scenario().cliName(), ReportCharts.plural(result.threads(), "thread"),
                    percentiles(result.latency(RoundResult::ceiling)));
        }
        out.println();
    }

    private void printTargets(List<TargetCheck> checks) {
        if (checks.isEmpty()) {
            return;
        }
        out.println("Issue targets (median per-round ratios and p99s):");
        for (TargetCheck check : checks) {
            line("- %s: %s (measured %s)", check.verdict(), check.target(), check.actual());
        }
    }

    private static String percentiles(Optional<MedianLatency> latency) {
        return latency.map(medians -> String.format(Locale.ROOT, "%.1f / %.1f", medians.p50Micros(),
                medians.p99Micros())).orElse("n/a");
    }

    /**
     * @param duration a duration
     * @return it in seconds, without trailing zeros, e.g. {@code "0.5"}
     */
    static String seconds(Duration duration) {
        return BigDecimal.valueOf(duration.toNanos(), 9).stripTrailingZeros().toPlainString();
    }

    private void line(String format, Object... args) {
        out.println(String.format(Locale.ROOT, format, args));
    }
}

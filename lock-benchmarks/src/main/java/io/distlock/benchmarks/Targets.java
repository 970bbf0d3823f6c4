package io.distlock.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * The performance targets for distlock, checked against a report:
 * <ol>
 *   <li>uncontended: at least 2x Redisson's pairs/s and at least half the ceiling in pairs/s;</li>
 *   <li>contended: at least 2x Redisson's hand-offs/s, and a lower p99 time inside {@code lock()};</li>
 *   <li>fair: not slower than Redisson's fair lock (hand-offs/s at the same thread count).</li>
 * </ol>
 * Ratios are the medians of the per-round ratios; p99s are the medians of the per-round p99s.
 * Targets of scenarios that were not run are left out.
 */
final class Targets {

    private Targets() {
    }

    /**
     * @param report the run's measurements
     * @return the checks of the scenarios that were run
     */
    static List<TargetCheck> evaluate(BenchmarkReport report) {
        List<TargetCheck> checks = new ArrayList<>();
        report.result(Scenario.UNCONTENDED).ifPresent(result -> {
            checks.add(atLeast("(1) uncontended: distlock >= 2x redisson pairs/s",
                    result, RoundResult::distlockPerRedisson, 2.0));
            checks.add(atLeast("(1) uncontended: distlock >= 0.5x ceiling pairs/s",
                    result, RoundResult::distlockPerCeiling, 0.5));
        });
        report.result(Scenario.CONTENDED).ifPresent(result -> {
            checks.add(atLeast("(2) contended: distlock >= 2x redisson hand-offs/s",
                    result, RoundResult::distlockPerRedisson, 2.0));
            checks.add(lowerP99(result));
        });
        report.result(Scenario.FAIR).ifPresent(result -> checks.add(atLeast(
                "(3) fair: distlock >= 1x redisson fair hand-offs/s", result, RoundResult::distlockPerRedisson, 1.0)));
        return checks;
    }

    private static TargetCheck atLeast(String target, ScenarioResult result, ToDoubleFunction<RoundResult> ratio,
                                       double factor) {
        Spread spread = result.spread(ratio);
        return new TargetCheck(target, String.format(Locale.ROOT, "median %.2fx of %d rounds, range %.2fx-%.2fx",
                spread.median(), result.rounds().size(), spread.min(), spread.max()), spread.median() >= factor);
    }

    private static TargetCheck lowerP99(ScenarioResult result) {
        String target = "(2) contended: distlock p99 lock() latency < redisson p99";
        Optional<MedianLatency> ours = result.latency(RoundResult::distlock);
        Optional<MedianLatency> theirs = result.latency(RoundResult::redisson);
        if (ours.isEmpty() || theirs.isEmpty()) {
            return new TargetCheck(target, "a round recorded no latency", false);
        }
        return new TargetCheck(target, String.format(Locale.ROOT, "median p99 of %d rounds: %.1f us vs %.1f us",
                result.rounds().size(), ours.get().p99Micros(), theirs.get().p99Micros()),
                ours.get().p99Nanos() < theirs.get().p99Nanos());
    }
}

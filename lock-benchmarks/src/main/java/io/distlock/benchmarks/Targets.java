package io.distlock.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The performance targets for distlock, checked against a report:
 * <ol>
 *   <li>uncontended: at least 2x Redisson's pairs/s and at least half the ceiling in pairs/s;</li>
 *   <li>contended: at least 2x Redisson's hand-offs/s, and a lower p99 time inside {@code lock()}.</li>
 * </ol>
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
                    result.distlock().perSecond(), result.redisson().perSecond(), 2.0));
            checks.add(atLeast("(1) uncontended: distlock >= 0.5x ceiling pairs/s",
                    result.distlock().perSecond(), result.ceilingPairsPerSecond(), 0.5));
        });
        report.result(Scenario.CONTENDED).ifPresent(result -> {
            checks.add(atLeast("(2) contended: distlock >= 2x redisson hand-offs/s",
                    result.distlock().perSecond(), result.redisson().perSecond(), 2.0));
            checks.add(lowerP99(result));
        });
        return checks;
    }

    private static TargetCheck atLeast(String target, double ours, double reference, double factor) {
        double ratio = ours / reference;
        return new TargetCheck(target, String.format(Locale.ROOT, "%.2fx", ratio), ratio >= factor);
    }

    private static TargetCheck lowerP99(ScenarioResult result) {
        Latency ours = result.distlock().latency().orElseThrow();
        Latency theirs = result.redisson().latency().orElseThrow();
        return new TargetCheck("(2) contended: distlock p99 lock() latency < redisson p99",
                String.format(Locale.ROOT, "%.1f us vs %.1f us", ours.p99Micros(), theirs.p99Micros()),
                ours.p99Nanos() < theirs.p99Nanos());
    }
}

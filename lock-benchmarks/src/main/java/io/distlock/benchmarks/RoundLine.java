package io.distlock.benchmarks;

import java.util.Locale;

/** Formats one round of a scenario as one compact markdown list item, so a reader sees the spread. */
final class RoundLine {

    private RoundLine() {
    }

    /**
     * @param scenario the round's scenario
     * @param number   the round's number, from 1
     * @param round    its measurements
     * @return e.g. {@code - contended r2: distlock 1,234; redisson 567; ...}, with the p99s if the
     *         scenario records latency
     */
    static String format(Scenario scenario, int number, RoundResult round) {
        return String.format(Locale.ROOT, "- %s r%d: distlock %,.0f; redisson %,.0f; ceiling %,.0f; "
                        + "distlock/redisson %.2fx; distlock/ceiling %.2fx%s", scenario.cliName(), number,
                round.distlock().perSecond(), round.redisson().perSecond(), round.ceilingPairsPerSecond(),
                round.distlockPerRedisson(), round.distlockPerCeiling(), p99s(round));
    }

    private static String p99s(RoundResult round) {
        if (round.distlock().latency().isEmpty() && round.redisson().latency().isEmpty()) {
            return "";
        }
        return "; p99 distlock " + p99(round.distlock()) + ", redisson " + p99(round.redisson());
    }

    private static String p99(Measurement measurement) {
        return measurement.latency().map(latency -> String.format(Locale.ROOT, "%.1f", latency.p99Micros()))
                .orElse("n/a");
    }
}

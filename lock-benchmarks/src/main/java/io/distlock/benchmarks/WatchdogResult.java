package io.distlock.benchmarks;

import java.util.List;
import java.util.Locale;

/**
 * Both clients' measurements of the {@link Scenario#WATCHDOG} scenario, and the checks of
 * distlock's.
 *
 * @param options  the scenario's size
 * @param distlock distlock's measurement
 * @param redisson Redisson's measurement
 * @param flushed  whether Redis was flushed before each client
 */
public record WatchdogResult(WatchdogOptions options, WatchdogMeasurement distlock, WatchdogMeasurement redisson,
                             boolean flushed) {

    /**
     * How many times the fewest possible renewal calls a round may take: covers the first round's
     * {@code NOSCRIPT} retry and a round more or less in the window, not one call per lock.
     */
    public static final int CALLS_PER_ROUND_FACTOR = 2;

    /** @return the most renewal calls per round distlock may take to pass */
    public long callsPerRoundBound() {
        return distlock.minCallsPerRound() * CALLS_PER_ROUND_FACTOR;
    }

    /** @return the checks: distlock lost no lock, and its renewal calls per round stay within the bound */
    public List<TargetCheck> checks() {
        TargetCheck noneLost = new TargetCheck(String.format(Locale.ROOT,
                "watchdog: distlock lost none of %,d locks held %s s (all keys present, shortest lease > 0, "
                        + "no lost event, every unlock succeeded)", distlock.locks(), options.hold().toMillis() / 1000.0),
                String.format(Locale.ROOT, "%,d lost, %,d keys at the end, shortest lease %,d ms",
                        distlock.locksLost(), distlock.keysAtEnd(), distlock.minPttl()),
                distlock.noneLost());
        TargetCheck bounded = new TargetCheck(String.format(Locale.ROOT,
                "watchdog: distlock renewal calls per round <= %d x ceil(%,d / %d) = %d", CALLS_PER_ROUND_FACTOR,
                distlock.locks(), distlock.batchSize(), callsPerRoundBound()),
                String.format(Locale.ROOT, "%.1f (%,d calls over %.1f rounds)", distlock.callsPerRound(),
                        distlock.renewalCalls(), distlock.rounds()),
                distlock.callsPerRound() <= callsPerRoundBound());
        return List.of(noneLost, bounded);
    }

    /** @return the performance target: distlock's JVM spent no more CPU in the hold than Redisson's */
    public TargetCheck cpuTarget() {
        return new TargetCheck("watchdog: distlock JVM CPU in the hold <= Redisson's",
                String.format(Locale.ROOT, "%.2f s vs %.2f s", distlock.cpuNanos() / 1e9, redisson.cpuNanos() / 1e9),
                distlock.cpuNanos() <= redisson.cpuNanos());
    }
}

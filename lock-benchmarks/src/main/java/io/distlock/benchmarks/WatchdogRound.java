package io.distlock.benchmarks;

/**
 * One round of the {@link Scenario#WATCHDOG} scenario: both clients measured back to back, in the
 * order the round alternates (see {@link WatchdogRun}).
 *
 * @param number        the round's number, from 1
 * @param distlockFirst whether distlock was measured before Redisson in this round
 * @param distlock      distlock's measurement
 * @param redisson      Redisson's measurement
 */
public record WatchdogRound(int number, boolean distlockFirst, WatchdogMeasurement distlock,
                            WatchdogMeasurement redisson) {

    /** @return distlock's JVM CPU in the hold over Redisson's */
    public double cpuRatio() {
        return (double) distlock.cpuNanos() / redisson.cpuNanos();
    }
}

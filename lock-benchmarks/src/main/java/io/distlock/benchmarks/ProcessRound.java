package io.distlock.benchmarks;

/**
 * One round of one case of the {@link Scenario#PROCESSES} scenario: both backends, measured back
 * to back with the same child JVM shape.
 *
 * @param distlock distlock's measurement
 * @param redisson Redisson's measurement
 */
public record ProcessRound(ProcessMeasurement distlock, ProcessMeasurement redisson) {

    /** @return distlock's acquisitions per second over Redisson's in this round */
    public double throughputRatio() {
        return distlock.acquisitionsPerSecond() / redisson.acquisitionsPerSecond();
    }
}

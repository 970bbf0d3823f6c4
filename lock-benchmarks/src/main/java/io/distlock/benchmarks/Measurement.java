package io.distlock.benchmarks;

import java.util.Optional;

/**
 * What one timed load achieved.
 *
 * @param operations   completed loop steps of all threads together
 * @param elapsedNanos from the start signal until the last thread finished its last step
 * @param latency      percentiles of the latencies the steps recorded, if they recorded any
 */
public record Measurement(long operations, long elapsedNanos, Optional<Latency> latency) {

    /** @return operations per second */
    public double perSecond() {
        return elapsedNanos <= 0 ? 0 : operations * 1e9 / elapsedNanos;
    }
}

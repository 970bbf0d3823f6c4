package io.distlock.benchmarks;

import java.util.Arrays;

/**
 * Percentiles of a set of latency samples (nearest-rank method).
 *
 * @param p50Nanos the median
 * @param p99Nanos the 99th percentile
 * @param samples  how many samples there were
 */
public record Latency(long p50Nanos, long p99Nanos, int samples) {

    /**
     * @param samples latency samples in nanoseconds, at least one; sorted in place
     * @return their percentiles
     */
    static Latency of(long[] samples) {
        if (samples.length == 0) {
            throw new IllegalArgumentException("no latency samples");
        }
        Arrays.sort(samples);
        return new Latency(percentile(samples, 50), percentile(samples, 99), samples.length);
    }

    private static long percentile(long[] sorted, int percent) {
        int rank = (int) Math.ceil(percent / 100.0 * sorted.length);
        return sorted[Math.max(rank, 1) - 1];
    }

    /** @return the median in microseconds */
    public double p50Micros() {
        return p50Nanos / 1_000.0;
    }

    /** @return the 99th percentile in microseconds */
    public double p99Micros() {
        return p99Nanos / 1_000.0;
    }
}

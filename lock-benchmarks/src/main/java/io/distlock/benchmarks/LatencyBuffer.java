package io.distlock.benchmarks;

import java.util.Arrays;

/**
 * A growable array of latency samples in nanoseconds, written by one thread only. Keeping raw
 * samples (instead of a histogram) gives exact percentiles for the sample counts of a benchmark
 * run, a few hundred thousand at most.
 */
public final class LatencyBuffer {

    private static final int INITIAL_CAPACITY = 16_384;

    private long[] samples = new long[INITIAL_CAPACITY];
    private int size;

    /** @param nanos one sample */
    public void add(long nanos) {
        if (size == samples.length) {
            samples = Arrays.copyOf(samples, size * 2);
        }
        samples[size++] = nanos;
    }

    /** @return the number of samples */
    int size() {
        return size;
    }

    /**
     * Copies the samples into {@code target}.
     *
     * @param target the array to fill
     * @param offset where the first sample goes
     */
    void copyTo(long[] target, int offset) {
        System.arraycopy(samples, 0, target, offset, size);
    }
}

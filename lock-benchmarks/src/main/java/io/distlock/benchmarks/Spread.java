package io.distlock.benchmarks;

import java.util.Arrays;

/**
 * The median and the range of a set of per-round values.
 *
 * @param median the middle value; with an even count, the mean of the two middle values
 * @param min    the smallest value
 * @param max    the largest value
 */
public record Spread(double median, double min, double max) {

    /**
     * @param values at least one value
     * @return their median and range
     */
    static Spread of(double... values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("no values");
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        double median = sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
        return new Spread(median, sorted[0], sorted[sorted.length - 1]);
    }
}

package io.distlock.benchmarks;

import java.util.List;
import java.util.Optional;

/**
 * Latency percentiles summarised over rounds: the median of the rounds' p50s and, separately, the
 * median of the rounds' p99s (samples of different rounds are not pooled).
 *
 * @param p50Nanos median over rounds of the p50
 * @param p99Nanos median over rounds of the p99
 */
public record MedianLatency(double p50Nanos, double p99Nanos) {

    /**
     * @param measurements one measurement per round, at least one
     * @return the medians, or empty if a measurement recorded no latency
     */
    static Optional<MedianLatency> of(List<Measurement> measurements) {
        if (measurements.stream().anyMatch(measurement -> measurement.latency().isEmpty())) {
            return Optional.empty();
        }
        List<Latency> latencies = measurements.stream().map(measurement -> measurement.latency().orElseThrow())
                .toList();
        return Optional.of(new MedianLatency(
                Spread.of(latencies.stream().mapToDouble(Latency::p50Nanos).toArray()).median(),
                Spread.of(latencies.stream().mapToDouble(Latency::p99Nanos).toArray()).median()));
    }

    /** @return the median p50 in microseconds */
    public double p50Micros() {
        return p50Nanos / 1_000.0;
    }

    /** @return the median p99 in microseconds */
    public double p99Micros() {
        return p99Nanos / 1_000.0;
    }
}

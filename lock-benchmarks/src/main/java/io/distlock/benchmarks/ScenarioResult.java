package io.distlock.benchmarks;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * The rounds of one scenario, and their summary over rounds.
 *
 * @param scenario the scenario
 * @param threads  how many threads ran it
 * @param rounds   its rounds in run order, at least one
 */
public record ScenarioResult(Scenario scenario, int threads, List<RoundResult> rounds) {

    /**
     * @param metric a value of one round, e.g. {@link RoundResult#distlockPerRedisson()}
     * @return its median and range over the rounds
     */
    public Spread spread(ToDoubleFunction<RoundResult> metric) {
        return Spread.of(rounds.stream().mapToDouble(metric).toArray());
    }

    /**
     * @param subject picks one measurement of a round, e.g. {@link RoundResult#distlock()}
     * @return the median over rounds of its operations per second
     */
    public double medianPerSecond(Function<RoundResult, Measurement> subject) {
        return spread(round -> subject.apply(round).perSecond()).median();
    }

    /**
     * @param subject picks one measurement of a round, e.g. {@link RoundResult#distlock()}
     * @return the median over rounds of its p50 and of its p99, if every round recorded latency
     */
    public Optional<MedianLatency> latency(Function<RoundResult, Measurement> subject) {
        return MedianLatency.of(rounds.stream().map(subject).toList());
    }
}

package io.distlock.benchmarks;

import java.util.List;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * The rounds of one case of the {@link Scenario#PROCESSES} scenario: every thread of every child
 * JVM contends for the same {@code names} lock names.
 *
 * @param names  how many lock names (1: one hot lock)
 * @param rounds the rounds in run order, at least one
 */
public record ProcessCase(int names, List<ProcessRound> rounds) {

    /**
     * @param metric a value of one round, e.g. {@link ProcessRound#throughputRatio()}
     * @return its median and range over the rounds
     */
    public Spread spread(ToDoubleFunction<ProcessRound> metric) {
        return Spread.of(rounds.stream().mapToDouble(metric).toArray());
    }

    /**
     * @param backend picks one backend's measurement of a round
     * @param metric  a value of that measurement
     * @return its median and range over the rounds
     */
    public Spread spread(Function<ProcessRound, ProcessMeasurement> backend,
                         ToDoubleFunction<ProcessMeasurement> metric) {
        return spread(round -> metric.applyAsDouble(backend.apply(round)));
    }

    /** @return e.g. {@code "1 lock name"} */
    public String label() {
        return names + " lock name" + (names == 1 ? "" : "s");
    }
}

package io.distlock.benchmarks;

import java.util.List;
import java.util.Optional;

/**
 * Everything one benchmark run measured.
 *
 * @param environment where and how it measured
 * @param results     one entry per scenario run, in run order
 */
public record BenchmarkReport(Environment environment, List<ScenarioResult> results) {

    /**
     * @param scenario a scenario
     * @return its result, if it was run
     */
    public Optional<ScenarioResult> result(Scenario scenario) {
        return results.stream().filter(result -> result.scenario() == scenario).findFirst();
    }
}

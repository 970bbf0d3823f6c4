package io.distlock.benchmarks;

import java.util.List;
import java.util.Optional;

/**
 * Everything one benchmark run measured.
 *
 * @param environment where and how it measured
 * @param results     one entry per throughput scenario run, in run order
 * @param watchdog    the watchdog scenario's result, if it was run
 * @param processes   the processes scenario's result, if it was run
 */
public record BenchmarkReport(Environment environment, List<ScenarioResult> results,
                              Optional<WatchdogResult> watchdog, Optional<ProcessResult> processes) {

    /**
     * @param scenario a scenario
     * @return its result, if it was run
     */
    public Optional<ScenarioResult> result(Scenario scenario) {
        return results.stream().filter(result -> result.scenario() == scenario).findFirst();
    }
}

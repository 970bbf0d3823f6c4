package io.distlock.benchmarks;

/**
 * The measurements of one scenario.
 *
 * @param scenario  the scenario
 * @param threads   how many threads ran it
 * @param distlock  distlock's measurement
 * @param redisson  Redisson's measurement
 * @param ceiling   raw EVALSHA round trips with the same number of threads
 */
public record ScenarioResult(Scenario scenario, int threads, Measurement distlock, Measurement redisson,
                             Measurement ceiling) {

    /** @return the ceiling in lock+unlock pairs per second: two round trips per pair */
    public double ceilingPairsPerSecond() {
        return ceiling.perSecond() / 2;
    }
}

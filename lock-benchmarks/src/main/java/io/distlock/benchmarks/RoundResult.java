package io.distlock.benchmarks;

/**
 * The measurements of one round of a scenario, taken back to back so that they see the same
 * machine speed; their ratios compare like with like.
 *
 * @param distlock distlock's measurement
 * @param redisson Redisson's measurement
 * @param ceiling  raw EVALSHA round trips with the same number of threads
 */
public record RoundResult(Measurement distlock, Measurement redisson, Measurement ceiling) {

    /** @return the ceiling in lock+unlock pairs per second: two round trips per pair */
    public double ceilingPairsPerSecond() {
        return ceiling.perSecond() / 2;
    }

    /** @return distlock's throughput over Redisson's in this round */
    public double distlockPerRedisson() {
        return distlock.perSecond() / redisson.perSecond();
    }

    /** @return distlock's throughput over the ceiling's pairs per second in this round */
    public double distlockPerCeiling() {
        return distlock.perSecond() / ceilingPairsPerSecond();
    }
}

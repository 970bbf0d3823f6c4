package io.distlock.benchmarks;

import java.util.OptionalLong;

/**
 * What one client did while it held many watchdog locks (see {@link WatchdogRun}).
 *
 * @param backend         the client's name, e.g. {@code "distlock"}
 * @param locks           locks it acquired and held
 * @param batchSize       the most locks its watchdog renews with one script call
 * @param acquireNanos    time to acquire all of them, one after the other from one thread
 * @param holdNanos       length of the hold window over which the counters below were taken
 * @param renewalInterval time between two renewal rounds (a third of the timeout), in nanoseconds
 * @param renewalCalls    {@code EVAL} + {@code EVALSHA} commands Redis received in the hold window,
 *                        less those of the benchmark's own census
 * @param cpuNanos        CPU time of the whole JVM in the hold window
 * @param jitMillis       of which JIT compilation, in ms, if the JVM says
 * @param heapBytes       used heap after a GC with the locks held, minus before acquiring them
 * @param redisBytes      Redis {@code used_memory} with the locks held, minus before acquiring them
 * @param keysAtEnd       the client's lock keys in Redis at the end of the hold window
 * @param minPttl         shortest lease left among those keys over all censuses, in ms
 * @param censuses        how many censuses were taken in the hold window (the last at its end)
 * @param longestStall    longest stall of the JVM in the hold window, in ms ({@link PauseMonitor})
 * @param lostReported    locks the client reported lost, if it reports losses
 * @param renewalFailures renewals the client reported failed (Redis errors), if it reports them
 * @param unlockFailures  {@code unlock()} calls at the end that failed because the lock was not held
 */
public record WatchdogMeasurement(String backend, int locks, int batchSize, long acquireNanos, long holdNanos,
                                  long renewalInterval, long renewalCalls, long cpuNanos, OptionalLong jitMillis,
                                  long heapBytes,
                                  long redisBytes, long keysAtEnd, long minPttl, int censuses, long longestStall,
                                  OptionalLong lostReported, OptionalLong renewalFailures, long unlockFailures) {

    /** @return renewal rounds in the hold window: its length over the renewal interval */
    public double rounds() {
        return (double) holdNanos / renewalInterval;
    }

    /** @return renewal script calls per round */
    public double callsPerRound() {
        return renewalCalls / rounds();
    }

    /** @return the fewest calls a round can take: locks over batch size, rounded up */
    public long minCallsPerRound() {
        return ((long) locks + batchSize - 1) / batchSize;
    }

    /** @return CPU time of the JVM in the hold window, as a share of one core (100 = one core busy) */
    public double cpuPercentOfCore() {
        return cpuNanos * 100.0 / holdNanos;
    }

    /** @return heap bytes per held lock (approximate: a GC's view of the whole JVM) */
    public double heapBytesPerLock() {
        return (double) heapBytes / locks;
    }

    /** @return Redis memory per held lock */
    public double redisBytesPerLock() {
        return (double) redisBytes / locks;
    }

    /**
     * @return locks lost by the strictest of the signals: keys missing at the end, failed unlocks,
     *         losses the client reported
     */
    public long locksLost() {
        return Math.max(locks - keysAtEnd, Math.max(unlockFailures, lostReported.orElse(0)));
    }

    /** @return whether every lock was kept: all keys present, no lease ever seen at 0, none lost */
    public boolean noneLost() {
        return locksLost() == 0 && keysAtEnd == locks && minPttl > 0;
    }
}

package io.distlock.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The {@link Scenario#WATCHDOG} scenario: distlock and Redisson, each with a client of its own
 * whose watchdog timeout is {@link WatchdogOptions#timeout()}, acquire N locks without a lease
 * ({@code lock()}, one after the other from one thread, as a job locking its items would) and hold
 * them for {@link WatchdogOptions#hold()}, after {@link #WARM_UP_ROUNDS} renewal rounds of warm-up (and
 * after a warm-up pass of both clients, {@link #WARM_UP_PASS_ROUNDS}). Over
 * the hold window it measures the script calls Redis
 * receives ({@code INFO commandstats}), the JVM's CPU time and longest stall ({@link PauseMonitor}),
 * and takes censuses of the lock keys (count and shortest lease left); around the acquisition it measures heap and Redis memory. Then
 * it unlocks everything from the same thread, closes the client and deletes what is left.
 *
 * <p>It measures both clients once per round, distlock first in odd rounds and Redisson first in
 * even ones, over an even number of rounds ({@link #roundsFor(int)}): the client measured second
 * pays for what the JVM still does after the first (a late collection, compilation), about a tenth
 * of its CPU in measurements on 2 cores, so each client goes first equally often.
 *
 * <p>A server the run started is flushed before each client, so each starts from an empty Redis; a
 * server given with {@code --redis-uri} is not (only this run's keys are ever deleted), and its
 * other clients' scripts would count as renewals.
 */
final class WatchdogRun {

    /** Censuses in the hold window, evenly spaced; the last one at its end. */
    static final int CENSUSES = 6;

    /**
     * Renewal rounds each client runs before the hold window opens: the window measures the steady
     * cost of keeping the leases alive, not the JIT compilation of a renewal path run for the first
     * time (which would count against whichever client goes first in this JVM).
     */
    static final int WARM_UP_ROUNDS = 3;

    /**
     * Renewal rounds of the warm-up pass: before either client is measured, each runs the whole
     * scenario once (acquire every lock, hold them this many rounds, release them). Both clients
     * run on Netty in this JVM, and a few dozen renewal calls a second make its I/O paths hot
     * slowly: without the pass, their compilation (over a second of CPU in a 30 s window) fell in
     * the window of whichever client was measured first.
     */
    static final int WARM_UP_PASS_ROUNDS = 10;

    private final WatchdogOptions options;
    private final int rounds;
    private final String redisUri;
    private final RedisAdmin admin;
    private final boolean flushBeforeEach;
    private final String keyNamespace;
    private final Consumer<String> progress;

    /**
     * @param options         size of the scenario
     * @param rounds          rounds asked for, at least 1: rounded up to an even number ({@link #roundsFor(int)})
     * @param redisUri        the Redis to use
     * @param admin           the benchmark's own connection to it
     * @param flushBeforeEach whether to delete every key of the server before each client (only
     *                        for a server this run started)
     * @param keyNamespace    prefix of every key of this run
     * @param progress        receives one line per step
     */
    WatchdogRun(WatchdogOptions options, int rounds, String redisUri, RedisAdmin admin, boolean flushBeforeEach,
                String keyNamespace, Consumer<String> progress) {
        this.options = options;
        this.rounds = roundsFor(rounds);
        this.redisUri = redisUri;
        this.admin = admin;
        this.flushBeforeEach = flushBeforeEach;
        this.keyNamespace = keyNamespace;
        this.progress = progress;
    }

    /**
     * @param asked rounds asked for ({@code --rounds}), at least 1
     * @return the rounds the scenario runs: {@code asked} rounded up to an even number, so that each
     *         client is measured first in half of them
     */
    static int roundsFor(int asked) {
        return asked + asked % 2;
    }

    /**
     * @return both clients' measurements, round by round
     * @throws InterruptedException if the calling thread is interrupted
     */
    WatchdogResult execute() throws InterruptedException {
        LeaseCensus census = LeaseCensus.load(admin.commands());
        Function<String, LockBackend> distlockClient =
                prefix -> DistlockBackend.connectWatchdog(redisUri, prefix, options);
        Function<String, LockBackend> redissonClient =
                prefix -> RedissonBackend.connectWatchdog(redisUri, prefix, options.timeout());
        // distlock warms up last and is measured first: so each client's window follows the other
        // client's pass in half of the rounds (distlock in rounds 2 and 4, Redisson in 1 and 3...).
        warmUp("redisson", redissonClient);
        warmUp("distlock", distlockClient);
        List<WatchdogRound> measured = new ArrayList<>(rounds);
        for (int round = 1; round <= rounds; round++) {
            boolean distlockFirst = round % 2 == 1;
            WatchdogMeasurement distlock;
            WatchdogMeasurement redisson;
            if (distlockFirst) {
                distlock = measure("distlock", round, census, distlockClient);
                redisson = measure("redisson", round, census, redissonClient);
            } else {
                redisson = measure("redisson", round, census, redissonClient);
                distlock = measure("distlock", round, census, distlockClient);
            }
            measured.add(new WatchdogRound(round, distlockFirst, distlock, redisson));
        }
        return new WatchdogResult(options, measured, flushBeforeEach);
    }

    /** The warm-up pass of one client ({@link #WARM_UP_PASS_ROUNDS}): nothing is measured. */
    private void warmUp(String subject, Function<String, LockBackend> connect) throws InterruptedException {
        String prefix = keyNamespace + "watchdog-warm-up-" + subject + ":";
        if (flushBeforeEach) {
            admin.flushAll();
        }
        try (LockBackend backend = connect.apply(prefix)) {
            List<Lock> held = acquireAll(backend);
            sleepUntil(System.nanoTime() + WARM_UP_PASS_ROUNDS * options.renewalInterval().toNanos());
            releaseAll(held);
            progress.accept(String.format(Locale.ROOT, "watchdog %-9s warm-up pass: %,d locks held %d rounds",
                    subject, options.locks(), WARM_UP_PASS_ROUNDS));
        } finally {
            admin.deleteKeys(prefix + "*");
        }
    }

    /** @return every lock of the scenario, acquired with {@code lock()} one after the other */
    private List<Lock> acquireAll(LockBackend backend) {
        List<Lock> held = new ArrayList<>(options.locks());
        for (int i = 0; i < options.locks(); i++) {
            Lock lock = backend.lock("lock-" + i);
            lock.lock();
            held.add(lock);
        }
        return held;
    }

    /** @return how many of the locks could not be unlocked (their lease was lost) */
    private static long releaseAll(List<Lock> held) {
        long unlockFailures = 0;
        for (Lock lock : held) {
            try {
                lock.unlock();
            } catch (IllegalMonitorStateException lost) {
                unlockFailures++;
            }
        }
        return unlockFailures;
    }

    private WatchdogMeasurement measure(String subject, int round, LeaseCensus census,
                                        Function<String, LockBackend> connect) throws InterruptedException {
        String prefix = keyNamespace + "watchdog-r" + round + "-" + subject + ":";
        if (flushBeforeEach) {
            admin.flushAll();
        }
        try (LockBackend backend = connect.apply(prefix)) {
            long heapBefore = JvmUsage.usedHeapAfterGc();
            long redisBefore = admin.usedMemory();
            long acquireStart = System.nanoTime();
            List<Lock> held = acquireAll(backend);
            long acquireNanos = System.nanoTime() - acquireStart;
            long heapBytes = JvmUsage.usedHeapAfterGc() - heapBefore;
            long redisBytes = admin.usedMemory() - redisBefore;
            String label = String.format(Locale.ROOT, "watchdog-r%d %-9s", round, subject);
            progress.accept(String.format(Locale.ROOT, "%s acquired %,d locks in %.2f s; holding them %s s", label,
                    options.locks(), acquireNanos / 1e9, options.hold().toMillis() / 1000.0));

            Hold hold = hold(label, census, prefix + "*");

            long unlockFailures = releaseAll(held);
            return new WatchdogMeasurement(subject, options.locks(), backend.watchdogBatchSize(), acquireNanos,
                    hold.nanos, options.renewalInterval().toNanos(), hold.scriptCalls, hold.cpuNanos, hold.jitMillis,
                    heapBytes, redisBytes, hold.last.keys(), hold.minPttl, CENSUSES, hold.longestStallMillis,
                    backend.lostLocks(), backend.renewalFailures(), unlockFailures);
        } finally {
            admin.deleteKeys(prefix + "*");
        }
    }

    /** The counters of one hold window. */
    private record Hold(long nanos, long scriptCalls, long cpuNanos, OptionalLong jitMillis, long minPttl,
                        LeaseCensus.Result last, long longestStallMillis) {
    }

    /** Waits out the warm-up and the hold window, taking the censuses, and reads the counters around the window. */
    private Hold hold(String label, LeaseCensus census, String pattern) throws InterruptedException {
        sleepUntil(System.nanoTime() + WARM_UP_ROUNDS * options.renewalInterval().toNanos());
        long holdNanos = options.hold().toNanos();
        long callsBefore = admin.scriptCalls();
        long cpuBefore = JvmUsage.processCpuNanos();
        OptionalLong jitBefore = JvmUsage.jitMillis();
        long start = System.nanoTime();
        long censusCalls = 0;
        long minPttl = Long.MAX_VALUE;
        LeaseCensus.Result last = null;
        try (PauseMonitor pauses = PauseMonitor.start()) {
            for (int k = 1; k <= CENSUSES; k++) {
                sleepUntil(start + holdNanos * k / CENSUSES);
                last = census.take(pattern);
                censusCalls += last.scriptCalls();
                minPttl = Math.min(minPttl, last.minPttl());
                progress.accept(String.format(Locale.ROOT, "%s census %d/%d: %,d keys, shortest lease "
                        + "left %,d ms, longest JVM stall so far %,d ms", label, k, CENSUSES, last.keys(),
                        last.minPttl(), pauses.longestMillis()));
            }
            long cpuNanos = JvmUsage.processCpuNanos() - cpuBefore;
            OptionalLong jitAfter = JvmUsage.jitMillis();
            OptionalLong jitMillis = jitBefore.isPresent() && jitAfter.isPresent()
                    ? OptionalLong.of(jitAfter.getAsLong() - jitBefore.getAsLong()) : OptionalLong.empty();
            long scriptCalls = admin.scriptCalls() - callsBefore - censusCalls;
            return new Hold(System.nanoTime() - start, scriptCalls, cpuNanos, jitMillis, minPttl, last,
                    pauses.longestMillis());
        }
    }

    private static void sleepUntil(long deadlineNanos) throws InterruptedException {
        long left;
        while ((left = deadlineNanos - System.nanoTime()) > 0) {
            TimeUnit.NANOSECONDS.sleep(left);
        }
    }
}

package io.distlock.faults.checker;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;

/**
 * The seeded plan of one worker thread: an endless sequence of random {@link Operation}s drawn from
 * a {@link LoadProfile}: calls of every sort, re-entries to depth 1-4, interrupts and cancellations
 * at random moments, ordinary holds, holds that outlive several watchdog renewals, and holds that
 * outlive a short explicit lease (their releases come after it ran out). Worker
 * {@code w} gets a seed derived from the run seed, each of its threads a seed derived from that,
 * so the same run seed plans the same operations on every thread, whatever the timing.
 */
public final class Schedule {

    private static final LockKind[] SINGLE_KINDS = {
        LockKind.REENTRANT, LockKind.FAIR, LockKind.FENCED, LockKind.READ, LockKind.WRITE};

    /** A RedLock's longest critical section: long enough for its contenders to meet. */
    private static final int RED_HOLD_MS = 300;
    /** Long watchdog holds last from here to {@link #LONG_HOLD_MS} + {@link #LONG_HOLD_SPREAD_MS}: several renewals. */
    private static final long LONG_HOLD_MS = 4_000;
    private static final int LONG_HOLD_SPREAD_MS = 6_000;
    /** Short explicit leases: from here to {@link #SHORT_LEASE_MS} + 500 ms, held up to 1.2 s longer. */
    private static final long SHORT_LEASE_MS = 300;

    private final Random random;
    private final LoadProfile profile;
    private final int client;
    private int next;

    /**
     * @param runSeed the run's seed
     * @param profile the mix of operations to draw from
     * @param worker  the worker's index
     * @param thread  the thread's index within the worker
     */
    public Schedule(long runSeed, LoadProfile profile, int worker, int thread) {
        this.random = new Random(derive(derive(runSeed, worker), thread));
        this.profile = profile;
        this.client = thread % 2;
    }

    /**
     * @param seed  a seed
     * @param index an index
     * @return a well-mixed seed for the {@code index}th child of {@code seed}
     */
    public static long derive(long seed, int index) {
        return new SplittableRandom(seed ^ (0x9E3779B97F4A7C15L * (index + 1))).nextLong();
    }

    /** @return the next operation of this thread */
    public Operation next() {
        int index = next++;
        int roll = random.nextInt(100);
        Operation.Call call = roll < 15 ? Operation.Call.LOCK
                : roll < 60 ? Operation.Call.TRY_LOCK
                : roll < 80 ? Operation.Call.ASYNC
                : Operation.Call.ASYNC_PAIR;
        LockKind kind = profile.kind(random.nextInt(100));
        List<String> names;
        List<LockKind> componentKinds = new ArrayList<>();
        if (kind == LockKind.MULTI) {
            names = subset(2 + random.nextInt(Math.min(2, profile.names().size() - 1)));
            for (int i = 0; i < names.size(); i++) {
                componentKinds.add(SINGLE_KINDS[random.nextInt(SINGLE_KINDS.length)]);
            }
        } else if (kind == LockKind.RED) {
            names = List.of(pick(CheckerSettings.RED_NAMES));
            componentKinds.add(kind);
        } else {
            names = List.of(pick(profile.names()));
            componentKinds.add(kind);
        }
        long waitMs = call == Operation.Call.LOCK ? -1 : waitTime();
        int shape = random.nextInt(100);
        long leaseMs;
        long holdMs;
        if (shape < profile.longHoldPercent()) {
            leaseMs = -1;
            holdMs = LONG_HOLD_MS + random.nextInt(LONG_HOLD_SPREAD_MS + 1);
        } else if (shape < profile.longHoldPercent() + profile.shortLeasePercent()) {
            leaseMs = SHORT_LEASE_MS + random.nextInt(501);
            holdMs = leaseMs + 200 + random.nextInt(1_001);
        } else {
            leaseMs = random.nextInt(3) == 0 ? -1 : CheckerSettings.MIN_LEASE_MS
                    + random.nextInt((int) (CheckerSettings.MAX_LEASE_MS - CheckerSettings.MIN_LEASE_MS + 1));
            holdMs = random.nextInt((kind == LockKind.RED ? RED_HOLD_MS : profile.maxHoldMs()) + 1);
        }
        // A thread that takes more permits with lock() could wait forever on permits that threads
        // doing the same hold: semaphore re-entries always have a wait time.
        int depth = call == Operation.Call.ASYNC_PAIR || (call == Operation.Call.LOCK && kind == LockKind.SEMAPHORE)
                ? 1 : 1 + random.nextInt(4);
        boolean threadCall = call == Operation.Call.LOCK || call == Operation.Call.TRY_LOCK;
        long interruptAfterMs = threadCall && random.nextInt(5) == 0 ? random.nextInt(300) : -1;
        long cancelAfterMs = !threadCall && random.nextInt(4) == 0 ? random.nextInt(300) : -1;
        return new Operation(index, call, kind, names, List.copyOf(componentKinds), waitMs, leaseMs, depth, holdMs,
                interruptAfterMs, cancelAfterMs, client);
    }

    private long waitTime() {
        int roll = random.nextInt(10);
        return roll < 2 ? 0 : roll < 6 ? random.nextInt(500) : 500 + random.nextInt(2_500);
    }

    private String pick(List<String> names) {
        return names.get(random.nextInt(names.size()));
    }

    /** @return {@code size} distinct names, sorted: MultiLocks over the same names take them in one order */
    private List<String> subset(int size) {
        List<String> pool = new ArrayList<>(profile.names());
        List<String> chosen = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            chosen.add(pool.remove(random.nextInt(pool.size())));
        }
        chosen.sort(null);
        return List.copyOf(chosen);
    }
}

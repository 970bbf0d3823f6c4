package io.distlock.faults.checker;

import java.util.List;

/**
 * The mix of operations a run's schedules draw from: how often each lock kind comes up, on how
 * many names, how long critical sections last, and how many holds outlive several watchdog
 * renewals or their own explicit lease. {@link #MIXED} is the normal run; the others weight the
 * kind one planted defect breaks, so the mutation self-test catches it within a short load.
 */
public enum LoadProfile {
    /** Every kind, on four names and the RedLock name. */
    MIXED(4, 50, 3, 4, 10, 10, 10, 10, 10, 15, 25, 10),
    /** Reentrant locks on one name; a quarter of the holds outlive a short explicit lease. */
    EXCLUSIVE(1, 50, 0, 25, 100, 0, 0, 0, 0, 0, 0, 0),
    /** Reentrant locks on two names; half the holds outlive several watchdog renewals. */
    WATCHDOG(2, 50, 50, 0, 100, 0, 0, 0, 0, 0, 0, 0),
    /** Fenced locks on one name. */
    FENCED(1, 50, 0, 0, 0, 0, 100, 0, 0, 0, 0, 0),
    /** Read and write locks on one name. */
    READ_WRITE(1, 50, 0, 0, 0, 0, 0, 50, 50, 0, 0, 0),
    /** Fair locks on one name, held long enough for a queue to form. */
    FAIR(1, 600, 0, 0, 0, 100, 0, 0, 0, 0, 0, 0),
    /**
     * MultiLocks over two or three of three names, among reentrant and write locks on single names:
     * a MultiLock often gets its first components and then finds a later one taken.
     */
    MULTI(3, 500, 0, 0, 35, 0, 0, 0, 35, 30, 0, 0),
    /** RedLocks on the one RedLock name. */
    RED(1, 50, 0, 0, 0, 0, 0, 0, 0, 0, 100, 0),
    /** Reentrant and fenced locks on one name: one JVM's waiters of both kinds sleep side by side. */
    HAND_OFF(1, 50, 0, 0, 60, 0, 40, 0, 0, 0, 0, 0),
    /**
     * Semaphores on one name, held long enough for every permit to be out; a few holds outlive a
     * short explicit lease or several watchdog renewals.
     */
    SEMAPHORE(1, 200, 3, 5, 0, 0, 0, 0, 0, 0, 0, 100);

    private final int names;
    private final int maxHoldMs;
    private final int longHoldPercent;
    private final int shortLeasePercent;
    // Private and never written after construction: the constants stay immutable.
    @SuppressWarnings("ImmutableEnumChecker")
    private final int[] kindWeights;

    /**
     * @param names             how many of {@link CheckerSettings#NAMES} single locks and MultiLocks use
     * @param maxHoldMs         longest ordinary critical section
     * @param longHoldPercent   share of holds with the watchdog that last several renewals (4-10 s)
     * @param shortLeasePercent share of holds that outlive a short explicit lease and release after it ran out
     * @param kindWeights       weight of each {@link LockKind}, in declaration order
     */
    LoadProfile(int names, int maxHoldMs, int longHoldPercent, int shortLeasePercent, int... kindWeights) {
        this.names = names;
        this.maxHoldMs = maxHoldMs;
        this.longHoldPercent = longHoldPercent;
        this.shortLeasePercent = shortLeasePercent;
        this.kindWeights = kindWeights;
    }

    /** @return the names single locks and MultiLocks use */
    public List<String> names() {
        return CheckerSettings.NAMES.subList(0, names);
    }

    /** @return longest ordinary critical section, in ms */
    public int maxHoldMs() {
        return maxHoldMs;
    }

    /** @return percentage of holds that outlive several watchdog renewals */
    public int longHoldPercent() {
        return longHoldPercent;
    }

    /** @return percentage of holds that outlive a short explicit lease */
    public int shortLeasePercent() {
        return shortLeasePercent;
    }

    /**
     * @param roll a number in {@code [0, 100)}
     * @return the kind that roll draws
     */
    public LockKind kind(int roll) {
        int total = 0;
        LockKind[] kinds = LockKind.values();
        for (int i = 0; i < kinds.length; i++) {
            total += kindWeights[i];
            if (roll < total) {
                return kinds[i];
            }
        }
        throw new IllegalStateException(this + ": kind weights must add up to 100");
    }
}

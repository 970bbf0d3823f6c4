package io.distlock.faults.checker;

import java.util.List;

/**
 * One planned operation of a worker thread, fixed by the schedule before it runs (nothing in it
 * depends on what earlier operations returned, so a seed always plans the same operations).
 *
 * @param index            position in the thread's schedule
 * @param call             how the lock is asked for
 * @param kind             the lock kind; {@link LockKind#MULTI} takes {@code componentKinds}
 * @param names            the lock names (one, or the sorted components of a MultiLock)
 * @param componentKinds   for a MultiLock, the kind of each component; else the kind alone
 * @param waitMs           wait time of {@code tryLock} and async calls; -1 for {@code lock()}
 * @param leaseMs          explicit lease, or -1 for the watchdog
 * @param depth            how many times the thread takes the lock (re-entries = depth - 1)
 * @param holdMs           how long the critical section lasts
 * @param interruptAfterMs for thread calls, when to interrupt the waiting caller; -1: never
 * @param cancelAfterMs    for async calls, when to cancel the future; -1: never
 * @param client           which of the worker's two clients of the main server (0 direct, 1 by proxy)
 */
public record Operation(int index, Call call, LockKind kind, List<String> names, List<LockKind> componentKinds,
                        long waitMs, long leaseMs, int depth, long holdMs, long interruptAfterMs, long cancelAfterMs,
                        int client) {

    /** How the lock is asked for. */
    public enum Call {
        /** {@code lock()} or {@code lock(lease)}: no wait limit. */
        LOCK,
        /** {@code tryLock(wait)} or {@code tryLock(wait, lease)}. */
        TRY_LOCK,
        /** {@code tryLockAsync} with an explicit holder id. */
        ASYNC,
        /** Two overlapping {@code tryLockAsync} calls for the same holder id. */
        ASYNC_PAIR
    }

    /** @return whether the call runs on the calling thread (and may be interrupted) */
    public boolean threadCall() {
        return call == Call.LOCK || call == Call.TRY_LOCK;
    }

    @Override
    public String toString() {
        return call + " " + kind + (kind == LockKind.MULTI ? componentKinds.toString() : "") + " " + names
                + " wait=" + waitMs + " lease=" + leaseMs + " depth=" + depth + " hold=" + holdMs
                + (interruptAfterMs >= 0 ? " interruptAfter=" + interruptAfterMs : "")
                + (cancelAfterMs >= 0 ? " cancelAfter=" + cancelAfterMs : "") + " client=" + client;
    }
}

package io.distlock.core;

/**
 * Receives what the engine does with locks: the hook for metrics, logging and alerting
 * (the Spring starter's Micrometer binder is one). Register with
 * {@link LockClient.Builder#listener(LockListener)} or {@link LockClient#addListener(LockListener)}.
 *
 * <p>Methods are called synchronously on engine threads (often Redis I/O threads): they must be
 * quick and must not block or call back into the lock. Exceptions they throw are logged and
 * otherwise ignored. Every method has an empty default.
 */
public interface LockListener {

    /**
     * A caller found the lock held by someone else and started waiting for it. Every such event
     * is followed by exactly one {@link #onAcquired} or {@link #onAcquireFailed} with
     * {@link LockEvent#waited()} set.
     *
     * @param event the lock and holder that wait
     */
    default void onWaiting(LockEvent event) {
    }

    /**
     * A hold was acquired (also for reentrant holds: see {@link LockEvent#holdCount()}).
     *
     * @param event {@link LockEvent#duration()} is the time spent acquiring
     */
    default void onAcquired(LockEvent event) {
    }

    /**
     * An acquisition gave up: timeout, busy (it was not to wait), interrupt or error
     * ({@link LockEvent#failure()}).
     *
     * @param event {@link LockEvent#duration()} is the time spent trying
     */
    default void onAcquireFailed(LockEvent event) {
    }

    /**
     * A hold was released ({@link LockEvent#holdCount()} 0 means the lock is free now). Also
     * reported, with count 0, for a hold that ended in Redis without a confirmed release: an
     * explicit lease that ran out without {@code unlock()}, or a last release Redis never
     * confirmed and nobody retried (both noticed up to one watchdog timeout later). So every
     * first hold ends with exactly one released or lost event.
     *
     * @param event for the last hold, {@link LockEvent#duration()} is how long it was held
     */
    default void onReleased(LockEvent event) {
    }

    /**
     * The watchdog renewed the lease of a held lock.
     *
     * @param event the lock and holder
     */
    default void onRenewed(LockEvent event) {
    }

    /**
     * The watchdog could not renew a lease: a renewal call failed, or Redis did not answer it
     * within its deadline (two fifths of a renewal interval, at least a second; the lease then has a third
     * of its time left, or more). Reported at most once per hold and renewal round; the watchdog keeps trying.
     *
     * @param event {@link LockEvent#cause()} is the Redis failure, or a
     *              {@link java.util.concurrent.TimeoutException} for a call without an answer
     */
    default void onRenewalFailed(LockEvent event) {
    }

    /**
     * The watchdog went to renew a lease and found it gone. {@link #onLost} follows unless the
     * loss was already reported.
     *
     * @param event the lock and holder
     */
    default void onRenewalLost(LockEvent event) {
    }

    /**
     * A lease was lost while the holder believed it held the lock (expired or deleted). Found
     * either by the watchdog or by the holder's {@code unlock()}, which then throws
     * {@link LockLostException}. Reported once per lost hold.
     *
     * @param event the lock and holder that lost it
     */
    default void onLost(LockEvent event) {
    }
}

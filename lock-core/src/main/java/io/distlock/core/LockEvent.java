package io.distlock.core;

import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.Objects;

/**
 * What happened to one lock, as reported to {@link LockListener}s.
 *
 * @param lockName  the lock's name (without key prefix)
 * @param group     the low-cardinality name metrics count the lock under: the
 *                  {@code @DistributedLock} static name, the group given to
 *                  {@link LockClient#getLock(String, String)}, or else the lock name up to its first
 *                  {@code ':'} ({@code "order"} for {@code "order:42"})
 * @param lockType  the kind of lock: {@code "reentrant"}, {@code "fair"}, {@code "read"}, ..., or
 *                  the type the client reports for all its locks
 *                  ({@link LockClient.Builder#reportedLockType}, {@code "red_lock"} for RedLock masters)
 * @param holderId  the holder the event is about
 * @param holdCount the holder's hold count after the event (0 once released or lost)
 * @param duration  acquisition events: time spent acquiring; release events: time held since the
 *                  first hold; other events: {@link Duration#ZERO}
 * @param waited    acquisition events: whether the caller had to wait (it found the lock held)
 * @param failure   for {@link LockListener#onAcquireFailed}: why; otherwise {@code null}
 * @param cause     the exception behind an error, or {@code null}
 */
public record LockEvent(
        String lockName,
        String group,
        String lockType,
        String holderId,
        int holdCount,
        Duration duration,
        boolean waited,
        @Nullable Failure failure,
        @Nullable Throwable cause) {

    /** Why an acquisition failed. */
    public enum Failure {
        /** The wait time elapsed while another holder had the lock. */
        TIMEOUT,
        /**
         * Another holder had the lock and the caller asked not to wait (a wait time of zero, such as
         * {@code tryLock()} or a {@code @Scheduled} job that skips a busy tick): an expected outcome,
         * told apart from a wait that ran out.
         */
        BUSY,
        /** The waiting thread was interrupted (or the async attempt was cancelled). */
        INTERRUPTED,
        /** Redis could not be reached or answered with an error. */
        ERROR
    }

    /**
     * Checks the required fields.
     */
    public LockEvent {
        Objects.requireNonNull(lockName, "lockName");
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(lockType, "lockType");
        Objects.requireNonNull(duration, "duration");
    }
}

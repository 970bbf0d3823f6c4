package io.distlock.spring;

/**
 * The kind of lock a {@link DistributedLock} method takes; the {@code type} tag of its metrics.
 */
public enum LockType {
    /** Reentrant exclusive lock (the default). */
    REENTRANT,
    /** Exclusive lock granted in request order across JVMs. */
    FAIR,
    /** Shared read side of a read-write lock. */
    READ,
    /** Exclusive write side of a read-write lock. */
    WRITE,
    /** Reentrant lock with a fencing token (see {@code LockContext}). */
    FENCED,
    /**
     * Lock on a majority of independent Redis masters ({@code distlock.redlock.nodes}; a method
     * asking for it without nodes configured stops startup).
     */
    RED_LOCK,
    /**
     * A permit of a semaphore: at most {@link DistributedLock#permits()} calls hold one at a time,
     * across every instance (e.g. "at most 2 calls to the payment provider"). A call takes one
     * permit per lock name, with the same waits, leases and watchdog as the locks.
     */
    SEMAPHORE
}

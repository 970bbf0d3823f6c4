package io.distlock.spring;

/**
 * What a {@link DistributedLock} method does when the lock is not acquired within its wait time.
 */
public enum OnFailure {
    /** Throw {@link io.distlock.core.LockAcquisitionException}, naming the lock and the wait. */
    THROW,
    /** Do not run the method; return {@code null}, or {@code Optional.empty()} for Optional methods. */
    SKIP
}

package io.distlock.spring.internal;

import io.distlock.spring.LockType;

/**
 * Counts the {@link io.distlock.spring.DistributedLock} calls stopped because their lease was lost
 * ({@link io.distlock.spring.OnLost#CANCEL}): the {@code distlock.cancelled} meter, where the
 * application has Micrometer.
 */
@FunctionalInterface
public interface CancelledCalls {

    /** Counts nothing: an application without Micrometer. */
    CancelledCalls NONE = (name, type) -> { };

    /**
     * @param name the annotation's static name
     * @param type the kind of lock
     */
    void cancelled(String name, LockType type);
}

package io.distlock.spring;

import org.springframework.expression.Expression;

import java.time.Duration;

/**
 * What a {@link DistributedLock} method needs at each call, worked out once at startup: the
 * static name, the parsed key expression, the resolved wait and lease, and what to do on failure.
 *
 * @param name            static part of the lock name
 * @param type            the kind of lock
 * @param key             parsed key expression, or {@code null} when the lock is the name alone
 * @param waitTime        how long to wait
 * @param leaseTime       lease, or {@code null} for the watchdog
 * @param onFailure       what to do when not acquired in time
 * @param returns         how the result decides when the locks are released
 */
record LockedMethod(String name, LockType type, Expression key, Duration waitTime, Duration leaseTime, OnFailure onFailure,
                    ReturnStrategy returns) {
}

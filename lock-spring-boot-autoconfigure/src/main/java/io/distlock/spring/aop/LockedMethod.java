package io.distlock.spring.aop;

import io.distlock.spring.DistributedLock;
import io.distlock.spring.LockType;
import io.distlock.spring.OnFailure;
import io.distlock.spring.OnLost;
import org.jspecify.annotations.Nullable;
import org.springframework.expression.Expression;

import java.lang.reflect.Method;
import java.time.Duration;

/**
 * What a {@link DistributedLock} method needs at each call, worked out once at startup: the
 * static name, the parsed key expression, the resolved wait and lease, and what to do on failure.
 *
 * @param name            static part of the lock name
 * @param method          the method as the bean's class declares it: key expressions see its
 *                        parameter names (a JDK proxy's interface method may name them otherwise)
 * @param type            the kind of lock
 * @param key             parsed key expression, or {@code null} when the lock is the name alone
 * @param waitTime        how long to wait
 * @param leaseTime       lease, or {@code null} for the watchdog
 * @param onFailure       what to do when not acquired in time
 * @param onLost          what happens to the running method if its lease is lost
 * @param minHoldTime     how long the locks stay taken at least after they were acquired, or
 *                        {@code null} to release them when the method ends
 * @param returns         how the result decides when the locks are released
 */
record LockedMethod(String name, Method method, LockType type, int permits, @Nullable Expression key, Duration waitTime,
                    @Nullable Duration leaseTime, OnFailure onFailure, OnLost onLost, @Nullable Duration minHoldTime,
                    ReturnStrategy returns) {
}

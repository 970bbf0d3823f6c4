package io.distlock.spring.aop;

import io.distlock.spring.DistributedLock;
import org.jspecify.annotations.Nullable;

import java.time.Duration;

/**
 * What {@link DistributedLockAdvisor} needs from the application's settings ({@code distlock.*}
 * in Spring Boot), so that the advice depends on no configuration class.
 *
 * @param defaultWaitTime   wait of methods whose {@link DistributedLock#waitTime()} is empty
 * @param defaultLeaseTime  lease of methods whose {@link DistributedLock#leaseTime()} is empty;
 *                          {@code null}: the watchdog renews the lease
 * @param redLockConfigured whether RedLock masters are configured, which {@code type = RED_LOCK}
 *                          methods need: without them such a method stops startup. Keep it in
 *                          line with the advisor's RedLock masters (with none, a RED_LOCK call
 *                          fails, it never runs unlocked)
 * @param order             the advisor's order among the advice of a bean (lower runs first,
 *                          around the others)
 */
public record LockAdviceSettings(Duration defaultWaitTime, @Nullable Duration defaultLeaseTime,
                                 boolean redLockConfigured, int order) {
}

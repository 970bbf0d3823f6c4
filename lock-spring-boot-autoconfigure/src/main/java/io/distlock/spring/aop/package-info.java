/**
 * The {@code @DistributedLock} advice: {@link io.distlock.spring.aop.DistributedLockAdvisor} finds
 * annotated methods and checks them at startup; per call, the interceptor evaluates the key, takes
 * the locks, and lets the method's return-type strategy (plain, {@code CompletionStage},
 * reactive) release them when the work the result stands for is done, after the outer
 * transaction if one is active.
 */
@NullMarked
package io.distlock.spring.aop;

import org.jspecify.annotations.NullMarked;

package io.distlock.spring.aop;

import io.distlock.spring.DistributedLock;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

/**
 * How a {@link DistributedLock} method's result decides when its locks are released: when the
 * method returns ({@link PlainReturn}), when a returned {@code CompletionStage} completes
 * ({@link CompletionStageReturn}), or when a reactive result terminates ({@link ReactiveReturn}).
 * Chosen once per method from its return type ({@link ReturnStrategies}).
 */
interface ReturnStrategy {

    /**
     * Acquires the call's locks, runs the method, and arranges their release.
     *
     * @param invocation the intercepted call
     * @param call       its locks
     * @return the method's result (or what stands for it when skipped)
     * @throws Throwable what the method threw, or the lock failure
     */
    @Nullable Object invoke(MethodInvocation invocation, LockedCall call) throws Throwable;

    /**
     * @return whether the locks outlive the calling thread's call, so they must be held under a
     *         holder id of their own rather than the thread's
     */
    boolean outlivesCall();
}

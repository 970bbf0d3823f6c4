package io.distlock.spring;

import org.aopalliance.intercept.MethodInvocation;
import org.springframework.util.ClassUtils;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * How a {@link DistributedLock} method's result decides when its locks are released: when the
 * method returns ({@link PlainReturn}), when a returned {@code CompletionStage} completes
 * ({@link CompletionStageReturn}), or when a {@code Mono}/{@code Flux} terminates
 * ({@link ReactorReturn}). Chosen once per method from its return type.
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
    Object invoke(MethodInvocation invocation, LockedCall call) throws Throwable;

    /**
     * @return whether the locks outlive the calling thread's call, so they must be held under a
     *         holder id of their own rather than the thread's
     */
    boolean outlivesCall();

    /**
     * @param returnType the method's declared return type
     * @param where      the method, for messages
     * @return the strategy for it
     * @throws IllegalStateException for a {@code CompletionStage} type distlock cannot return
     */
    static ReturnStrategy forReturnType(Class<?> returnType, String where) {
        if (CompletionStage.class.isAssignableFrom(returnType)) {
            if (!returnType.isAssignableFrom(CompletableFuture.class)) {
                throw new IllegalStateException(where + ": return type " + returnType.getName() + " is a CompletionStage "
                        + "distlock cannot wrap; declare CompletionStage or CompletableFuture");
            }
            return new CompletionStageReturn();
        }
        if (isReactorType(returnType)) {
            return new ReactorReturn(returnType);
        }
        return new PlainReturn(returnType == Optional.class);
    }

    /** Checks by class name, so this works (and loads nothing) when Reactor is absent. */
    private static boolean isReactorType(Class<?> type) {
        ClassLoader loader = ReturnStrategy.class.getClassLoader();
        for (String reactive : new String[] {"reactor.core.publisher.Mono", "reactor.core.publisher.Flux"}) {
            if (ClassUtils.isPresent(reactive, loader) && ClassUtils.resolveClassName(reactive, loader).isAssignableFrom(type)) {
                return true;
            }
        }
        return false;
    }
}

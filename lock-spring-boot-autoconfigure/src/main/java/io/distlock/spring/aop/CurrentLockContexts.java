package io.distlock.spring.aop;

import io.distlock.spring.DistributedLock;
import io.distlock.spring.LockContext;
import io.distlock.spring.internal.CallScopes;

import java.util.List;
import java.util.Optional;

/**
 * The contexts of the {@link DistributedLock} methods running on each thread, innermost first
 * ({@link CallScopes}). Only the advice makes a context current, around the method body on the
 * calling thread; what applications see is {@link LockContext#current()}, read-only.
 */
final class CurrentLockContexts {

    private CurrentLockContexts() {
    }

    /**
     * @param names lock names a new call is about to take
     * @return the holder id of the innermost context on this thread holding one of them, so the
     *         nested call re-enters instead of waiting for its own caller
     */
    static Optional<String> holderOfAny(List<String> names) {
        return CallScopes.all(LockContext.class)
                .filter(context -> context.lockNames().stream().anyMatch(names::contains))
                .map(LockContext::holderId)
                .findFirst();
    }

    /** Makes {@code context} the current one on this thread until {@link #exit}. */
    static void enter(LockContext context) {
        CallScopes.enter(context);
    }

    /** Ends {@link #enter}; the enclosing context, if any, is current again. */
    static void exit(LockContext context) {
        CallScopes.exit(context);
    }
}

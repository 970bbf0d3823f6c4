package io.distlock.spring.aop;

import io.distlock.spring.DistributedLock;
import io.distlock.spring.LockContext;

import java.util.ArrayDeque;
import java.util.List;
import java.util.Optional;

/**
 * The contexts of the {@link DistributedLock} methods running on each thread, innermost first.
 * Only the advice makes a context current, around the method body on the calling thread; what
 * applications see is {@link LockContext#current()}, read-only.
 */
public final class CurrentLockContexts {

    private static final ThreadLocal<ArrayDeque<LockContext>> STACK = new ThreadLocal<>();

    private CurrentLockContexts() {
    }

    /** @return the context of the innermost {@link DistributedLock} method on this thread, if any */
    public static Optional<LockContext> innermost() {
        ArrayDeque<LockContext> stack = STACK.get();
        return stack == null ? Optional.empty() : Optional.ofNullable(stack.peek());
    }

    /**
     * @param names lock names a new call is about to take
     * @return the holder id of the innermost context on this thread holding one of them, so the
     *         nested call re-enters instead of waiting for its own caller
     */
    static Optional<String> holderOfAny(List<String> names) {
        ArrayDeque<LockContext> stack = STACK.get();
        if (stack == null) {
            return Optional.empty();
        }
        for (LockContext context : stack) {
            if (context.lockNames().stream().anyMatch(names::contains)) {
                return Optional.of(context.holderId());
            }
        }
        return Optional.empty();
    }

    /** Makes {@code context} the current one on this thread until {@link #exit}. */
    static void enter(LockContext context) {
        ArrayDeque<LockContext> stack = STACK.get();
        if (stack == null) {
            stack = new ArrayDeque<>();
            STACK.set(stack);
        }
        stack.push(context);
    }

    /** Ends {@link #enter}; the enclosing context, if any, is current again. */
    static void exit(LockContext context) {
        ArrayDeque<LockContext> stack = STACK.get();
        stack.remove(context);
        if (stack.isEmpty()) {
            STACK.remove();
        }
    }
}

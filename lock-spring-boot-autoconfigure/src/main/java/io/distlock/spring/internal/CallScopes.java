package io.distlock.spring.internal;

import java.util.ArrayDeque;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Per thread, the scopes the code running on it is inside, innermost first: the advice enters the
 * context of a {@code @DistributedLock} method around its body, and {@code LockContext} reads it.
 * Of any type, so that this class needs neither of them.
 */
public final class CallScopes {

    private static final ThreadLocal<ArrayDeque<Object>> STACK = new ThreadLocal<>();

    private CallScopes() {
    }

    /**
     * @param type the kind of scope
     * @param <T>  its type
     * @return the innermost scope of that kind on this thread, if any
     */
    public static <T> Optional<T> innermost(Class<T> type) {
        return all(type).findFirst();
    }

    /**
     * @param type the kind of scope
     * @param <T>  its type
     * @return the scopes of that kind on this thread, innermost first
     */
    public static <T> Stream<T> all(Class<T> type) {
        ArrayDeque<Object> stack = STACK.get();
        return stack == null ? Stream.empty() : stack.stream().filter(type::isInstance).map(type::cast);
    }

    /** Makes {@code scope} the innermost one on this thread until {@link #exit}. */
    public static void enter(Object scope) {
        ArrayDeque<Object> stack = STACK.get();
        if (stack == null) {
            stack = new ArrayDeque<>();
            STACK.set(stack);
        }
        stack.push(scope);
    }

    /** Ends {@link #enter}; the enclosing scope, if any, is the innermost one again. */
    public static void exit(Object scope) {
        ArrayDeque<Object> stack = STACK.get();
        stack.remove(scope);
        if (stack.isEmpty()) {
            STACK.remove();
        }
    }
}

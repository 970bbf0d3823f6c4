package io.distlock.spring;

import io.distlock.core.FencedLock;
import io.distlock.core.RedisLock;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The lock held for the {@link DistributedLock} method running on this thread:
 *
 * <pre>{@code
 * @DistributedLock(key = "#orderId")
 * public void ship(long orderId) {
 *     LockContext lock = LockContext.current();
 *     if (lock.remainingLease().compareTo(Duration.ofSeconds(2)) < 0 || lock.isLost()) { ... }
 * }
 * }</pre>
 *
 * Available while the method body runs on the calling thread (for methods returning
 * {@code CompletionStage}, {@code Mono} or {@code Flux}: while the method builds its result, not in
 * the callbacks that complete it). Nested annotated methods see their own context; when they
 * return, the outer one is current again.
 */
public final class LockContext {

    private static final ThreadLocal<ArrayDeque<LockContext>> CURRENT = new ThreadLocal<>();

    private final String name;
    private final List<RedisLock> locks;
    private final String holderId;

    /**
     * Made by the {@link DistributedLock} interceptor for each call; applications get theirs from
     * {@link #current()}.
     *
     * @param name     the annotation's static name
     * @param locks    the locks held for the call
     * @param holderId the holder id they are held under
     */
    public LockContext(String name, List<RedisLock> locks, String holderId) {
        this.name = name;
        this.locks = locks;
        this.holderId = holderId;
    }

    /**
     * @return the context of the innermost {@link DistributedLock} method running on this thread
     * @throws IllegalStateException if none is running
     */
    public static LockContext current() {
        return find().orElseThrow(() -> new IllegalStateException("LockContext.current() was called outside a "
                + "@DistributedLock method: it is only available while such a method runs on the calling thread "
                + "(called through its Spring proxy)"));
    }

    /** @return the context of the innermost {@link DistributedLock} method on this thread, if any */
    public static Optional<LockContext> find() {
        ArrayDeque<LockContext> stack = CURRENT.get();
        return stack == null ? Optional.empty() : Optional.ofNullable(stack.peek());
    }

    /** @return the annotation's static name (the {@code name} tag of metrics) */
    public String name() {
        return name;
    }

    /** @return the full names of the locks held for this call, sorted (one unless the key was a collection) */
    public List<String> lockNames() {
        return locks.stream().map(RedisLock::getName).toList();
    }

    /** @return the holder id the locks are held under */
    public String holderId() {
        return holderId;
    }

    /**
     * Asks Redis how long the lease has left: the shortest of the held locks.
     *
     * @return remaining lease; {@link Duration#ZERO} if a lock is no longer there
     */
    public Duration remainingLease() {
        long shortest = Long.MAX_VALUE;
        for (RedisLock lock : locks) {
            long ttl = lock.remainingTimeToLive();
            if (ttl == -1) {
                continue; // no expiry set: not bounded by this lock
            }
            shortest = Math.min(shortest, Math.max(0, ttl));
        }
        return shortest == Long.MAX_VALUE ? Duration.ZERO : Duration.ofMillis(shortest);
    }

    /**
     * Pass it to the storage the lock protects, which refuses tokens older than the newest it saw
     * (see {@link FencedLock}).
     *
     * @return for {@code type = FENCED}, the token of this hold (of the first lock for a
     *         collection key); empty for the kinds that issue none
     */
    public OptionalLong fencingToken() {
        for (RedisLock lock : locks) {
            if (lock instanceof FencedLock fenced) {
                return OptionalLong.of(fenced.getToken(holderId));
            }
        }
        return OptionalLong.empty();
    }

    /**
     * Asks Redis whether this call still holds every one of its locks.
     *
     * @return {@code true} if a lease was lost (expired or deleted): another holder may be inside
     *         the critical section, so stop writing and let the method fail
     */
    public boolean isLost() {
        return !locks.stream().allMatch(lock -> lock.isHeldBy(holderId));
    }

    /**
     * @param names lock names a new call is about to take
     * @return the holder id of the innermost context on this thread holding one of them, so the
     *         nested call re-enters instead of waiting for its own caller
     */
    public static Optional<String> holderOfAny(List<String> names) {
        ArrayDeque<LockContext> stack = CURRENT.get();
        if (stack == null) {
            return Optional.empty();
        }
        for (LockContext context : stack) {
            if (context.locks.stream().anyMatch(lock -> names.contains(lock.getName()))) {
                return Optional.of(context.holderId);
            }
        }
        return Optional.empty();
    }

    /**
     * Makes this the current context until {@link #exit()}: done by the {@link DistributedLock}
     * interceptor around the method body.
     */
    public void enter() {
        ArrayDeque<LockContext> stack = CURRENT.get();
        if (stack == null) {
            stack = new ArrayDeque<>();
            CURRENT.set(stack);
        }
        stack.push(this);
    }

    /** Ends {@link #enter()}; the enclosing context, if any, is current again. */
    public void exit() {
        ArrayDeque<LockContext> stack = CURRENT.get();
        stack.remove(this);
        if (stack.isEmpty()) {
            CURRENT.remove();
        }
    }

    @Override
    public String toString() {
        return "LockContext[" + name + " " + lockNames() + ", holder " + holderId + "]";
    }
}

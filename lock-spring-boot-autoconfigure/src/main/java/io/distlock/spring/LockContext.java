package io.distlock.spring;

import io.distlock.core.FencedLock;
import io.distlock.core.LockLostException;
import io.distlock.spring.internal.CallScopes;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletionStage;

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
 * return, the outer one is current again. Only the {@link DistributedLock} advice makes a context
 * current: handing one to another thread lets that thread read it, never take part in the hold.
 */
public interface LockContext {

    /**
     * @return the context of the innermost {@link DistributedLock} method running on this thread
     * @throws IllegalStateException if none is running
     */
    static LockContext current() {
        return find().orElseThrow(() -> new IllegalStateException("LockContext.current() was called outside a "
                + "@DistributedLock method: it is only available while such a method runs on the calling thread "
                + "(called through its Spring proxy)"));
    }

    /** @return the context of the innermost {@link DistributedLock} method on this thread, if any */
    static Optional<LockContext> find() {
        return CallScopes.innermost(LockContext.class);
    }

    /** @return the annotation's static name (the {@code name} tag of metrics) */
    String name();

    /** @return the full names of the locks held for this call, sorted (one unless the key was a collection) */
    List<String> lockNames();

    /** @return the holder id the locks are held under */
    String holderId();

    /**
     * Asks Redis how long the lease has left: the shortest of the held locks.
     *
     * @return remaining lease; {@link Duration#ZERO} if a lock is no longer there
     */
    Duration remainingLease();

    /**
     * Pass it to the storage the lock protects, which refuses tokens older than the newest it saw
     * (see {@link FencedLock}).
     *
     * @return for {@code type = FENCED}, the token of this hold (of the first lock for a
     *         collection key); empty for the kinds that issue none
     */
    OptionalLong fencingToken();

    /**
     * A signal that completes, with what happened, when a lease of this call's locks is lost while
     * it runs: stop the work then (see {@link io.distlock.core.RedisLock#whenLost(String)}, which
     * also says how early it comes). When the call ends without a loss, it fails, with a
     * {@link java.util.concurrent.CancellationException} as the cause: no loss of this call can
     * come any more.
     * With {@code onLost = CANCEL} the advice acts on it already.
     *
     * @return completes with the loss
     */
    CompletionStage<LockLostException> whenLost();

    /**
     * Asks Redis, in one round trip to each lock's node (all at once), whether this call still
     * holds every one of its locks with at least {@code minLease} of its lease left: the check to
     * make right before a step that cannot be undone. Never answered {@code true} from local state.
     *
     * @param minLease the least lease that must be left; zero for "still held"
     * @return whether Redis confirmed every lock with that lease left
     * @throws io.distlock.core.LockException if Redis failed or did not answer in time
     */
    boolean confirmHeld(Duration minLease);

    /**
     * Asks Redis whether this call still holds every one of its locks.
     *
     * @return {@code true} if a lease was lost (expired or deleted): another holder may be inside
     *         the critical section, so stop writing and let the method fail
     */
    boolean isLost();
}

package io.distlock.core.engine;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The Redis side of one kind of lock: what one acquisition attempt and one release do, each a
 * single script call. Waiting, leases, the watchdog, events and the {@code Lock} API are the same
 * for every kind and live in {@link ScriptedLock} and {@link Acquisition}.
 */
public interface LockProtocol {

    /** @return the kind of lock, used in events and metrics (e.g. {@code "reentrant"}) */
    String type();

    /**
     * One attempt to acquire (or re-enter). Must be safe to repeat for the same
     * {@code knownCount}, and undone by {@link #release} with {@code knownCount + 1}.
     *
     * @param keys        the lock's keys
     * @param holderId    who acquires
     * @param leaseMillis lease to set, &gt; 0
     * @param knownCount  the holder's hold count before this attempt, as this client knows it
     * @return the attempt's outcome
     */
    CompletableFuture<Attempt> tryAcquire(LockKeys keys, String holderId, long leaseMillis, int knownCount);

    /**
     * Releases one hold; must be safe to repeat for the same {@code expectedCount}.
     *
     * @param keys          the lock's keys
     * @param holderId      who releases
     * @param expectedCount the hold count the caller has before this release
     * @return the remaining hold count, or {@code -1} if the holder holds nothing in Redis
     */
    CompletableFuture<Long> release(LockKeys keys, String holderId, int expectedCount);

    /**
     * Deletes the lock whoever holds it and wakes its waiters.
     *
     * @param keys the lock's keys
     * @return 1 if a lock was deleted, 0 if there was none
     */
    CompletableFuture<Long> forceUnlock(LockKeys keys);

    /**
     * Hands the lock from a holder releasing its last hold to a waiting holder of the same
     * client, without freeing it in between; only called when {@link #canHandOff()}.
     *
     * @param keys        the lock's keys
     * @param fromHolder  the holder releasing (hold count 1)
     * @param toHolder    the waiting holder, who gets hold count 1
     * @param leaseMillis the receiver's lease
     * @return 1 handed over; 0 the releasing holder holds it more than once (nothing changed);
     *         -1 the releasing holder holds nothing
     */
    default CompletableFuture<Long> handOff(LockKeys keys, String fromHolder, String toHolder, long leaseMillis) {
        throw new UnsupportedOperationException(type() + " locks are not handed off");
    }

    /** @return whether {@link #handOff} is supported: the lock has no order of its own to keep */
    default boolean canHandOff() {
        return false;
    }

    /**
     * @param keys     the lock's keys
     * @param clientId the waiting client
     * @return the channel this client's waiters of the lock listen on
     */
    default String waitChannel(LockKeys keys, String clientId) {
        return keys.channel();
    }

    /**
     * A waiter stops waiting (timeout, interrupt, error, abandon): gives up any place it holds
     * in the lock's own queue. Nothing to do for locks without a queue.
     *
     * @param keys     the lock's keys
     * @param holderId the waiter
     * @return completes when done
     */
    default CompletableFuture<?> leave(LockKeys keys, String holderId) {
        return CompletableFuture.completedFuture(null);
    }

    /**
     * @param holderId a holder
     * @return the field of the lock hash that holds the holder's hold count
     */
    default String holderField(String holderId) {
        return holderId;
    }

    /**
     * Renews the leases of a batch of holds of this kind, all in one cluster slot.
     *
     * @param holds       holds to renew
     * @param leaseMillis new lease
     * @return per hold, in order, whether it is still held (and renewed)
     */
    CompletableFuture<List<Long>> renew(List<Hold> holds, long leaseMillis);
}

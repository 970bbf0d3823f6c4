package io.distlock.core.internal.engine;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The Redis side of one kind of lock: what one acquisition attempt and one release do, each a
 * single script call. Waiting, leases, the watchdog, events and the {@code Lock} API are the same
 * for every kind and live in {@link ScriptedLock}, {@link Acquisitions}, {@link Acquisition} and
 * {@link Releases}.
 */
public interface LockProtocol {

    /** @return the kind of lock, used in events and metrics (e.g. {@code "reentrant"}) */
    String type();

    /**
     * One attempt to acquire (or re-enter). Each acquisition has a hold id of its own: repeating
     * the attempt with the same id counts it once, and {@link #release} with that id takes back
     * exactly this hold, never another hold of the same holder.
     *
     * @param keys        the lock's keys
     * @param holderId    who acquires
     * @param leaseMillis lease to set, &gt; 0
     * @param holdId      this acquisition's hold id, unique
     * @param reentry     whether the holder re-enters a hold this client knows it has: if Redis
     *                    no longer has that hold, the attempt answers {@link Attempt#reentryLost()}
     *                    instead of starting a new hold
     * @return the attempt's outcome
     */
    CompletableFuture<Attempt> tryAcquire(LockKeys keys, String holderId, long leaseMillis, String holdId,
                                          boolean reentry);

    /**
     * Releases one hold, the one with the given id, exactly once: the same release sent again
     * (however often, for {@link #answerKeptMillis()}, or until this client decided on an answer of
     * it: {@link ReleaseAnswers#read}) answers
     * {@link ReleaseReply.Outcome#RELEASED_BEFORE} and changes nothing; a hold id that is not there
     * (an attempt that never ran, an undo already done) changes nothing either.
     *
     * @param keys     the lock's keys
     * @param holderId who releases
     * @param holdId   the hold to release
     * @return what the release found
     */
    CompletableFuture<ReleaseReply> release(LockKeys keys, String holderId, String holdId);

    /**
     * {@link #release}, sent so that it runs before whatever is sent after it on the same
     * connection, even when Redis has lost its script cache ({@code ScriptExecutor.runInOrder}):
     * for a release the holder's next attempt must not overtake (an undo, a release sent again).
     *
     * @param keys     the lock's keys
     * @param holderId who releases
     * @param holdId   the hold to release
     * @return what the release found
     */
    CompletableFuture<ReleaseReply> releaseInOrder(LockKeys keys, String holderId, String holdId);

    /**
     * @return how long Redis remembers at least that a hold was released ({@link LockKeys#answerBook}):
     *         a release of it sent again within this time, before this client read an answer of it,
     *         answers {@link ReleaseReply.Outcome#RELEASED_BEFORE}; later, one that finds the holder holding
     *         nothing cannot tell its own earlier release from a lost lease
     */
    long answerKeptMillis();

    /**
     * Gives a held lock an explicit lease from now, only while the given hold is there. For
     * composite locks, which acquire their components with the watchdog and give them their
     * lease once all are held. A lease made shorter wakes the lock's waiters to look again.
     *
     * @param keys        the lock's keys
     * @param hold        the holder and one of its holds of this kind
     * @param leaseMillis the lease, &gt; 0
     * @param exact       {@code true}: set exactly (every hold of the holder asked for it), unless
     *                    Redis counts more holds of the holder than this client's view of this kind
     *                    of lock does (a lock of another kind under the same name holds it too): then
     *                    only lengthened; {@code false}: only lengthened (the holder's earlier holds
     *                    keep their lease)
     * @return {@code true} if set, {@code false} if that hold is gone (its lease was lost)
     */
    CompletableFuture<Boolean> setLease(LockKeys keys, HoldRef hold, long leaseMillis, boolean exact);

    /**
     * How long Redis keeps a force-unlock's answer ({@link LockKeys#forceUnlockAnswer}): longer
     * than any wait of a command Lettuce could still send again after a reconnect.
     */
    long FORCE_UNLOCK_ANSWER_KEPT_MILLIS = 3_600_000;

    /**
     * Deletes the lock whoever holds it and wakes its waiters, once: the same call run again
     * (Lettuce sends a command again after a reconnect when its answer was lost) answers as the
     * first run did and leaves a later holder's lock alone.
     *
     * @param keys   the lock's keys
     * @param callId this call's unique id
     * @return 1 if this call deleted a lock, 0 if there was none
     */
    CompletableFuture<Long> forceUnlock(LockKeys keys, String callId);

    /** {@link #handOff}: this call handed the lock over. */
    long HANDED_OVER = 1;
    /** {@link #handOff}: an earlier run of this same call handed the lock over. */
    long HANDED_OVER_BEFORE = 2;
    /**
     * {@link #handOff}: the hold was released before (by an ordinary release, or handed over to a
     * receiver whose hold is gone since): nothing is handed over now.
     */
    long RELEASED_BEFORE = 3;
    /** {@link #handOff}: the releasing holder holds the lock more than once, or not by that hold: nothing changed. */
    long NOT_HANDED_OVER = 0;
    /** {@link #handOff}: the releasing holder holds nothing (its lease was lost). */
    long NOT_HELD = -1;

    /**
     * Hands the lock from a holder releasing its last hold to a waiting holder of the same
     * client, without freeing it in between; only called when {@link #canHandOff()}.
     *
     * @param keys        the lock's keys
     * @param from        the hold being released (the holder's only one)
     * @param to          the waiting holder and its new hold's id; it gets hold count 1
     * @param leaseMillis the receiver's lease
     * @return {@link #HANDED_OVER}, {@link #HANDED_OVER_BEFORE}, {@link #RELEASED_BEFORE},
     *         {@link #NOT_HANDED_OVER} or {@link #NOT_HELD} (see {@code hand_off.lua}); exactly once,
     *         like {@link #release}
     */
    default CompletableFuture<Long> handOff(LockKeys keys, HoldRef from, HoldRef to, long leaseMillis) {
        throw new UnsupportedOperationException(type() + " locks are not handed off");
    }

    /**
     * Releases one hold like {@link #release}; if that frees the lock while holders of other
     * clients wait for it, the lock stays taken for this client's holders until one of them took
     * it, or for {@code yieldMillis} at most. Used when this client handed the lock on locally as
     * often in a row as it may, so its own threads cannot win it straight back; only called when
     * {@link #canHandOff()}.
     *
     * @param keys        the lock's keys
     * @param holderId    who releases
     * @param holdId      the hold to release
     * @param yieldMillis the longest the lock stays kept for the other clients
     * @param subscribed  whether this client listens on the lock's channel (its own subscription
     *                    does not count as a waiter of another client). Counting it while it is
     *                    still being made or ended at worst skips a yield; not counting it while
     *                    Redis has it would yield to nobody, so callers count it when in doubt
     * @return as {@link #release}
     */
    default CompletableFuture<ReleaseReply> releaseYielding(LockKeys keys, String holderId, String holdId,
                                                            long yieldMillis, boolean subscribed) {
        throw new UnsupportedOperationException(type() + " locks are not handed off, so never yielded");
    }

    /**
     * Releases one hold like {@link #release}; if that was the holder's last, the lock stays
     * taken, by nobody, for {@code keepMillis} more and then frees itself. Its waiters are woken
     * to look, and sleep until the keep ends. A job's minimum hold time: the next run, on any
     * instance or thread, waits that long.
     *
     * @param keys       the lock's keys
     * @param holderId   who releases
     * @param holdId     the hold to release
     * @param keepMillis how long the lock stays taken, &gt; 0
     * @return as {@link #release}
     * @throws UnsupportedOperationException if this kind of lock cannot be kept (see
     *                                       {@link #canKeep()})
     */
    default CompletableFuture<ReleaseReply> releaseKeeping(LockKeys keys, String holderId, String holdId, long keepMillis) {
        throw new UnsupportedOperationException(type() + " locks cannot be kept taken after their release");
    }

    /** @return whether {@link #releaseKeeping} is supported */
    default boolean canKeep() {
        return false;
    }

    /**
     * @return whether a re-entry takes something another holder could have had (a semaphore's
     *         permit), so that it must be as durable as a first hold; a lock's re-entry only counts
     *         up a hold nobody else can see
     */
    default boolean reentryTakesFromOthers() {
        return false;
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
     * An acquisition stops waiting (timeout, interrupt, error, abandon): gives up any place it
     * holds in the lock's own queue. Nothing to do for locks without a queue.
     *
     * @param keys   the lock's keys
     * @param holdId the acquisition's hold id, which names its place
     * @return completes when done
     */
    default CompletableFuture<?> leave(LockKeys keys, String holdId) {
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
     * Renews the leases of a batch of holds of this kind, all in one cluster slot, each only while
     * Redis still has the given hold of it. Sent in order (see {@link #releaseInOrder}): a renewal
     * must not run after a shorter lease set behind it ({@link #setLease}).
     *
     * @param holds       holds to renew
     * @param holdIds     per hold, in order, a hold id of it ({@link Hold#renewalId()} when the batch
     *                    was made): the lease is renewed only while Redis has that one
     * @param leaseMillis new lease
     * @return per hold, in order, whether that hold id is still held (and renewed)
     */
    CompletableFuture<List<Long>> renew(List<Hold> holds, List<String> holdIds, long leaseMillis);

    /**
     * Asks Redis what is left of one hold's lease (see {@code lease_left.lua}): one round trip,
     * reads only.
     *
     * @param keys the lock
     * @param hold a hold id of the holder's, with the holder
     * @return the lease left in milliseconds; {@code -1} without expiry; {@code -2} if Redis no
     *         longer has that hold
     */
    CompletableFuture<Long> leaseLeft(LockKeys keys, HoldRef hold);
}

package io.distlock.core.internal.engine;

import io.distlock.core.LockException;
import io.distlock.core.internal.pubsub.WakeUpChannel;
import org.jspecify.annotations.Nullable;

import java.util.concurrent.CompletableFuture;

/**
 * Releases the holds of one client's locks: retry-safe, and handing a lock straight to a sleeping
 * waiter of this client when it can.
 */
final class Releases {

    /**
     * Most hand-offs between holders of one client in a row before a release goes through Redis
     * (and its channel) and yields the lock to waiters of other clients, so waiters in other JVMs
     * are not starved by a busy JVM.
     */
    static final int MAX_HAND_OFFS_IN_A_ROW = 16;

    /**
     * How long a lock yielded to the other clients stays free for them only: long enough for a
     * woken waiter of another JVM to ask for it (a pub/sub message and one round trip), short
     * enough that a waiter that died or stalled holds nobody up for long.
     */
    static final long YIELD_MILLIS = 50;

    private final String clientId;
    private final ClientLifecycle lifecycle;
    private final HoldRegistry holds;
    private final LockEvents events;
    private final LockWaits waits;
    private final ReleaseAnswers answers;
    private final RedisCalls redis;
    private final HoldIds ids;

    /**
     * @param clientId  the client's id, for messages
     * @param lifecycle whether the client is open
     * @param holds     the client's holds
     * @param events    reports each release
     * @param waits     the client's waiting acquisitions: a release may hand its lock to one
     * @param answers   which release answers this client has read
     * @param redis     how releases reach Redis, within the command limit
     * @param ids       ids of force-unlock calls
     */
    Releases(String clientId, ClientLifecycle lifecycle, HoldRegistry holds, LockEvents events, LockWaits waits,
             ReleaseAnswers answers, RedisCalls redis, HoldIds ids) {
        this.clientId = clientId;
        this.lifecycle = lifecycle;
        this.holds = holds;
        this.events = events;
        this.waits = waits;
        this.answers = answers;
        this.redis = redis;
        this.ids = ids;
    }

    /**
     * Releases a hold; retry-safe: a release Redis did not confirm is sent again first (see
     * {@code unlock.lua}). The last hold goes straight to a sleeping waiter of this client for the
     * same kind of lock if there is one ({@code hand_off.lua}), at most
     * {@link #MAX_HAND_OFFS_IN_A_ROW} times in a row. The release after that goes through Redis and
     * yields the lock to waiters of other clients, if any listen, for {@link #YIELD_MILLIS} at
     * most, so waiters in other JVMs get their turn: without the yield this client's own threads,
     * one round trip away, would take it back before a waiter woken by the release message could.
     *
     * @param lock       the lock
     * @param holderId   the holder
     * @param holdId     the hold to release, or {@code null} for the holder's latest
     * @param keepMillis &gt; 0: a last hold leaves the lock taken, by nobody, that long (see
     *                   {@code RedisLock.unlockKeepingAsync}); 0: a plain release
     * @return completes when Redis confirmed the release and its events were delivered
     */
    CompletableFuture<Void> release(LockRef lock, String holderId, @Nullable String holdId, long keepMillis) {
        return events.afterDelivery(startRelease(lock, holderId, holdId, keepMillis));
    }

    /**
     * Sends again the releases of the holder's hold of the lock that Redis never confirmed; each
     * reports its outcome by events, and one that fails again stays unconfirmed.
     *
     * @param lock     the lock
     * @param holderId the holder
     */
    void resendUnconfirmed(LockRef lock, String holderId) {
        Hold hold = holds.hold(lock.keys(), lock.protocol(), holderId);
        if (hold != null) {
            hold.unconfirmedHoldIds().forEach(holdId -> startRelease(lock, holderId, holdId, 0));
        }
    }

    /**
     * @param lock the lock
     * @return whether it was taken, and is free now, whoever held it
     */
    boolean forceUnlock(LockRef lock) {
        String callId = ids.newId();
        return redis.sync("force-unlock of '" + lock.name() + "'",
                commands -> lock.protocol().forceUnlock(lock.keys(), callId)) == 1L;
    }

    /** {@link #release} without waiting for the delivery of its events. */
    private CompletableFuture<Void> startRelease(LockRef lock, String holderId, @Nullable String holdId,
                                                 long keepMillis) {
        lifecycle.ensureOpen();
        LockKeys keys = lock.keys();
        Hold hold = holds.hold(keys, lock.protocol(), holderId);
        Hold.Release taken = hold == null ? null : hold.takeForRelease(holdId);
        if (hold == null || taken == null) {
            // After the holds since, those a new acquisition ended when their lease ran out.
            CompletableFuture<Void> ended = holdId == null ? holds.unlockEnded(keys, lock.protocol(), holderId) : null;
            if (ended != null) {
                return ended;
            }
            return CompletableFuture.failedFuture(new IllegalMonitorStateException(
                    "Lock '" + lock.name() + "' is not held by " + ThreadHolder.describe(holderId, clientId)));
        }
        if (hold.lost()) {
            return CompletableFuture.failedFuture(holds.releasedLost(hold));
        }
        Acquisition next = null;
        if (taken.last()) {
            // A retried release may have freed the lock already: nothing to hand over then.
            next = keepMillis > 0 || taken.retry() ? null : claimSleepingWaiter(keys, hold);
            holds.releasing(hold, next != null);
        }
        long sentNanos = System.nanoTime();  // a hand-off's lease for the receiver begins after this
        CompletableFuture<Released> remaining;
        if (keepMillis > 0) {
            remaining = released(hold.protocol().releaseKeeping(keys, holderId, taken.holdId(), keepMillis));
        } else if (next != null) {
            remaining = handOff(keys, hold, taken.holdId(), next);
        } else if (taken.retry() || holdId != null) {
            // Sent again (its first send may still be on its way), or a hold an acquisition took
            // after its caller gave up: the holder's next attempt goes behind it.
            remaining = released(hold.protocol().releaseInOrder(keys, holderId, taken.holdId()));
        } else if (taken.last() && handOffsUsedUp(hold)) {
            remaining = released(hold.protocol().releaseYielding(keys, holderId, taken.holdId(), YIELD_MILLIS,
                    waits.listensOn(keys.channel())));
        } else {
            remaining = released(hold.protocol().release(keys, holderId, taken.holdId()));
        }
        Acquisition receiver = next;
        return remaining.handle((released, error) -> {
            if (error != null) {
                hold.releaseUnconfirmed(taken.holdId());
                RuntimeException why = RedisFailures.translate("release lock '" + lock.name() + "'", error);
                if (NotConnectedException.sentNothing(error)) {
                    throw new LockException(why.getMessage() + " The release was not sent: the lock stays held "
                            + "until its lease ends, or until unlock is called again once Redis answers (which is "
                            + "safe).", why);
                }
                throw new LockException("Redis did not confirm the release of lock '" + lock.name()
                        + "'; it may or may not be released. Calling unlock again is safe.", why);
            }
            // Decided: no run of this release is read again, so Redis may forget its answer.
            answers.read(keys, taken.holdId());
            if (!lostBefore(released.reply(), taken)) {
                holds.released(hold);
                if (receiver != null && released.handedOver()) {
                    receiver.handedOff(hold.handOffs() + 1, sentNanos);
                }
                return null;
            }
            throw holds.releasedLost(hold);
        });
    }

    /**
     * Whether the release found the lease lost before the caller released it. Redis remembers
     * every answer of a release ({@link LockProtocol#answerKeptMillis()}), so a run of it that
     * Lettuce or this engine sent again answers as the first run did: "nothing held" when that
     * run found nothing is a loss. A release this engine sent again whose earlier sends never ran
     * (none is remembered) and that now finds nothing held cannot tell: the hold ended either
     * before the caller released it, or after, when its lease ran out while the release went
     * unconfirmed (the watchdog no longer renews a hold being released). Taken as released: the
     * caller had left its critical section when it first called {@code unlock()}.
     *
     * @param reply what this run of the release answered
     * @param taken the release
     * @return whether to report the lease lost
     */
    private static boolean lostBefore(ReleaseReply reply, Hold.Release taken) {
        return reply.outcome() == ReleaseReply.Outcome.NOT_HELD_BEFORE
                || (reply.outcome() == ReleaseReply.Outcome.NOT_HELD && !taken.retry());
    }

    /**
     * What a release call answered.
     *
     * @param reply      what the release found; a hand-off that happened counts as released
     * @param handedOver whether hand_off.lua moved the lock to the claimed local waiter; only then
     *                   does that waiter hold it (a release that freed the lock after a refused
     *                   hand-off leaves it to the waiter's own attempts)
     */
    private record Released(ReleaseReply reply, boolean handedOver) {

        static final Released HANDED_OVER = new Released(
                new ReleaseReply(ReleaseReply.Outcome.RELEASED, 0), true);
    }

    /** @return what a release script call answered, within the command limit ({@link RedisCalls#inTime}) */
    private CompletableFuture<Released> released(CompletableFuture<ReleaseReply> release) {
        return redis.inTime(release).thenApply(reply -> new Released(reply, false));
    }

    /** @return a sleeping waiter of this client for the same kind of lock, claimed for a hand-off */
    private @Nullable Acquisition claimSleepingWaiter(LockKeys keys, Hold hold) {
        if (!hold.protocol().canHandOff() || handOffsUsedUp(hold)) {
            return null;
        }
        WakeUpChannel<Acquisition> sleepers = waits.find(keys.channel());
        return sleepers == null ? null : sleepers.claimFirst(waiter -> waiter.protocol() == hold.protocol());
    }

    /**
     * @return whether the lock came to this hold through as many local hand-offs in a row as
     *         allowed: its release goes through Redis and yields the lock to the other clients
     */
    private static boolean handOffsUsedUp(Hold hold) {
        return hold.protocol().canHandOff() && hold.handOffs() >= MAX_HAND_OFFS_IN_A_ROW;
    }

    /**
     * Hands the last hold to a claimed sleeper.
     *
     * @return handed over; or, when Redis did not hand it over, what the ordinary release of the
     *         hold answered instead (the sleeper then goes back to its own attempts)
     */
    private CompletableFuture<Released> handOff(LockKeys keys, Hold hold, String holdId, Acquisition next) {
        return redis.inTime(hold.protocol().handOff(keys, new HoldRef(hold.holderId(), holdId),
                        new HoldRef(next.holderId(), next.holdId()), next.leaseMillis()))
                .handle((result, error) -> {
                    if (result != null && (result == LockProtocol.HANDED_OVER
                            || result == LockProtocol.HANDED_OVER_BEFORE)) {
                        return CompletableFuture.completedFuture(Released.HANDED_OVER);
                    }
                    // No hand-off (or none known to have happened): the release is a plain one
                    // from here on, and new local waiters ask Redis instead of waiting for it.
                    holds.releasing(hold, false);
                    if (error != null) {
                        next.handOffFailed(error);
                        return CompletableFuture.<Released>failedFuture(error);
                    }
                    CompletableFuture<Released> released = result == LockProtocol.NOT_HANDED_OVER
                            // Redis counts more holds than we do: release ours the ordinary way,
                            // before the waiter's own attempt, which may then find the lock free.
                            ? released(hold.protocol().releaseInOrder(keys, hold.holderId(), holdId))
                            : CompletableFuture.completedFuture(new Released(result == LockProtocol.RELEASED_BEFORE
                                    ? new ReleaseReply(ReleaseReply.Outcome.RELEASED_BEFORE, 0)
                                    : new ReleaseReply(ReleaseReply.Outcome.NOT_HELD, 0), false));
                    next.handOffFailed(null);
                    return released;
                })
                .thenCompose(future -> future);
    }
}

package io.distlock.core.internal.engine;

import org.jspecify.annotations.Nullable;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * Starts the acquisitions of one client's locks ({@link Acquisition}) and sees each through for
 * its caller: a blocking caller waits for it, an asynchronous one gets a future, and a caller that
 * gives up gets nothing left behind.
 */
final class Acquisitions {

    private final String clientId;
    private final ClientLifecycle lifecycle;
    private final HoldIds ids;
    private final HoldRegistry holds;
    private final HoldUndos undos;
    private final Releases releases;
    private final RedisCalls redis;
    private final LockEvents events;
    private final Acquisition.Shared shared;
    private final long watchdogLeaseMillis;

    /**
     * @param clientId            the client's id: names its wait channels of fair locks, and holders in messages
     * @param lifecycle           whether the client is open
     * @param ids                 ids of holds
     * @param holds               the client's holds
     * @param undos               takes back holds nobody will use
     * @param releases            gives back a hold taken after its caller gave up
     * @param redis               how calls reach Redis and come back to callers
     * @param events              reports each acquisition
     * @param waits               the client's waiting acquisitions
     * @param watchdogLeaseMillis lease of watchdog holds
     */
    Acquisitions(String clientId, ClientLifecycle lifecycle, HoldIds ids, HoldRegistry holds, HoldUndos undos,
                 Releases releases, RedisCalls redis, LockEvents events, LockWaits waits, long watchdogLeaseMillis) {
        this.clientId = clientId;
        this.lifecycle = lifecycle;
        this.ids = ids;
        this.holds = holds;
        this.undos = undos;
        this.releases = releases;
        this.redis = redis;
        this.events = events;
        this.shared = new Acquisition.Shared(holds, undos, events, waits, watchdogLeaseMillis);
        this.watchdogLeaseMillis = watchdogLeaseMillis;
    }

    /**
     * Acquires for the calling thread.
     *
     * @param lock          the lock
     * @param holderId      the calling thread's holder id
     * @param wait          how long to wait; none tries once
     * @param lease         the lease asked for
     * @param interruptible whether an interrupt ends the wait
     * @return the hold, or {@code null} if the wait time elapsed
     * @throws InterruptedException if interruptible and interrupted; nothing is held then
     */
    @Nullable Hold acquire(LockRef lock, String holderId, Wait wait, Lease lease, boolean interruptible)
            throws InterruptedException {
        if (interruptible && Thread.interrupted()) {
            throw new InterruptedException("interrupted before acquiring lock '" + lock.name() + "'");
        }
        Acquisition acquisition = start(lock, holderId, true, wait, lease);
        Wait limit = wait.plus(2 * redis.commandLimitMillis());
        String action = "acquire lock '" + lock.name() + "'";
        boolean done = false;
        try {
            Hold hold = interruptible
                    ? Blocking.await(acquisition.outcome(), limit, action)
                    : Blocking.awaitUninterruptibly(acquisition.outcome(), limit, action);
            done = true;
            return hold;
        } finally {
            if (!done) {
                giveUp(acquisition);
            }
        }
    }

    /**
     * Acquires for an explicit holder.
     *
     * @param lock     the lock
     * @param holderId the holder
     * @param wait     how long to wait; none tries once
     * @param lease    the lease asked for
     * @return completes with whether it acquired, on the caller's threads ({@link RedisCalls#forCaller})
     */
    CompletableFuture<Boolean> acquireAsync(LockRef lock, String holderId, Wait wait, Lease lease) {
        Acquisition acquisition = start(lock, holderId, false, wait, lease);
        CompletableFuture<Boolean> acquired = redis.forCaller(acquisition.outcome().thenApply(Objects::nonNull));
        acquired.whenComplete((ok, error) -> {
            if (!Boolean.TRUE.equals(ok)) {
                // Not acquired, or the caller ended the future (cancel, orTimeout, complete):
                // nobody will use or release a hold that arrives after this.
                giveUp(acquisition);
            }
        });
        return acquired;
    }

    /**
     * Starts an acquisition for the holder. Releases of the holder that Redis never confirmed, and
     * undos of its earlier attempts still pending, are sent again first, on the same connection,
     * so they run before the attempt: those holds were given up, and an acquisition must not join
     * them (its one {@code unlock()} would then leave a hold behind, one the watchdog renews for
     * ever if it keeps this one's lease). One round trip still: the attempt does not wait for them.
     *
     * @param thread whether the holder is the calling thread, whose acquisitions never overlap (see
     *               {@link Acquisition#start})
     */
    private Acquisition start(LockRef lock, String holderId, boolean thread, Wait wait, Lease lease) {
        releases.resendUnconfirmed(lock, holderId);
        undos.sendFirst(lock.keys(), holderId);
        lifecycle.ensureOpen();
        return Acquisition.start(shared, lock, holderId, ids.newId(),
                lock.protocol().waitChannel(lock.keys(), clientId), thread, wait, lease);
    }

    /**
     * The caller stops waiting: abandon, or if the lock was acquired meanwhile, give back exactly
     * the hold this acquisition took (never another hold of the same holder).
     */
    private void giveUp(Acquisition acquisition) {
        if (!acquisition.abandon()) {
            acquisition.outcome().thenAccept(hold -> {
                if (hold != null) {
                    releases.release(acquisition.lock(), hold.holderId(), acquisition.holdId(), 0);
                }
            });
        }
    }

    /**
     * The last step of a composite lock's acquisition: the lease of the holder's latest hold,
     * counted from now (see {@link SettableLease}).
     *
     * @param lock                the lock
     * @param holderId            the holder
     * @param lease               the lease
     * @param acquiringSinceNanos {@link System#nanoTime()} when the composite acquisition started
     * @return completes when set, and its events delivered
     */
    CompletableFuture<Void> leaseFromNow(LockRef lock, String holderId, Lease lease, long acquiringSinceNanos) {
        return redis.forCaller(events.afterDelivery(startLeaseFromNow(lock, holderId, lease, acquiringSinceNanos)));
    }

    /** {@link #leaseFromNow} without waiting for the delivery of its events. */
    private CompletableFuture<Void> startLeaseFromNow(LockRef lock, String holderId, Lease lease,
                                                      long acquiringSinceNanos) {
        lifecycle.ensureOpen();
        Hold hold = holds.hold(lock.keys(), lock.protocol(), holderId);
        String holdId = hold == null ? null : hold.latestHoldId();
        if (hold == null || holdId == null) {
            return CompletableFuture.failedFuture(new IllegalMonitorStateException(
                    "Lock '" + lock.name() + "' is not held by " + ThreadHolder.describe(holderId, clientId)));
        }
        if (hold.lost()) {
            return CompletableFuture.failedFuture(holds.lostBeforeLease(hold));
        }
        long leaseMillis;
        boolean exact;
        if (!lease.isWatchdog()) {
            leaseMillis = lease.millis();
            exact = holds.leaseFromNow(hold, leaseMillis, acquiringSinceNanos);
        } else if (holds.leaseCannotHaveEndedSince(acquiringSinceNanos)) {
            return CompletableFuture.completedFuture(null);
        } else {
            leaseMillis = watchdogLeaseMillis;  // stays a watchdog hold: renewed from now, if still there
            exact = false;
        }
        long sentNanos = System.nanoTime();
        return redis.inTime(lock.protocol().setLease(lock.keys(), new HoldRef(holderId, holdId), leaseMillis, exact))
                .handle((stillHeld, error) -> {
                    if (error != null) {
                        throw RedisFailures.translate("set the lease of lock '" + lock.name() + "'", error);
                    }
                    if (!stillHeld) {
                        throw holds.lostBeforeLease(hold);
                    }
                    if (exact) {
                        hold.exactLeaseConfirmed(sentNanos, leaseMillis);
                    } else {
                        hold.leaseConfirmed(sentNanos, leaseMillis);  // only lengthened: from its send on
                    }
                    return null;
                });
    }
}

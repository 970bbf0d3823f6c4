package io.distlock.core.internal.engine;

import io.distlock.core.LockException;

import java.lang.System.Logger.Level;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

/**
 * A lock protocol whose acquisitions and releases wait for replicas ({@link ReplicaAcks}), so a
 * failover to an acknowledging replica cannot lose them. An acquisition fewer replicas
 * acknowledged is released again and fails: the caller must not act as if it held a lock the next
 * master may not have. A release fewer replicas acknowledged is logged, not failed: the lock is
 * free on the master, and at worst a failover brings it back until its lease ends. Never hands
 * locks off locally, so every acquisition goes through Redis and its acknowledgement.
 */
public final class ReplicatedProtocol implements LockProtocol {

    private static final System.Logger LOG = System.getLogger(ReplicatedProtocol.class.getName());

    private final LockProtocol delegate;
    private final ReplicaAcks acks;

    /**
     * @param delegate the protocol whose changes are waited for
     * @param acks     how many replicas, for how long
     */
    public ReplicatedProtocol(LockProtocol delegate, ReplicaAcks acks) {
        this.delegate = delegate;
        this.acks = acks;
    }

    @Override
    public String type() {
        return delegate.type();
    }

    @Override
    public CompletableFuture<Attempt> tryAcquire(LockKeys keys, String holderId, long leaseMillis, String holdId,
                                                 boolean reentry) {
        long mark = acks.mark();
        return delegate.tryAcquire(keys, holderId, leaseMillis, holdId, reentry).thenCompose(attempt -> {
            if (!attempt.acquired() || (reentry && !delegate.reentryTakesFromOthers())) {
                // A re-entry of a lock hold this client knows it has changes nothing another holder
                // could see: that hold was acknowledged. A count above 1 alone proves nothing: an
                // overlapping attempt of the same holder may have made the first hold, and its own
                // wait for the replicas may still fail. A semaphore's re-entry takes a permit.
                return CompletableFuture.completedFuture(attempt);
            }
            return acks.await(keys.lockKey(), mark).handle((ok, error) -> error).thenCompose(error -> error == null
                    ? CompletableFuture.completedFuture(attempt)
                    : giveBack(keys, new HoldRef(holderId, holdId), RedisFailures.unwrap(error)));
        });
    }

    /** Releases an unconfirmed hold, then fails the attempt saying why and whether the release worked. */
    private CompletableFuture<Attempt> giveBack(LockKeys keys, HoldRef hold, Throwable why) {
        return delegate.releaseInOrder(keys, hold.holderId(), hold.holdId()).handle((released, releaseError) -> {
            String reason = why instanceof ReplicaAcks.Unconfirmed ? why.getMessage()
                    : "waiting for replicas failed (" + why + ")";
            String outcome = releaseError == null ? "so it was released again"
                    : "and releasing it failed too (" + RedisFailures.unwrap(releaseError).getMessage()
                            + "), so it ends with its lease";
            throw new LockException("Lock " + keys.lockKey() + " was taken on the master but " + reason + ", "
                    + outcome + ": a failover could have lost it. Check the replicas (INFO replication) or lower "
                    + "the required replica acknowledgements (LockClient.Builder.replicaAcks, "
                    + "distlock.replica-ack.replicas).", why);
        });
    }

    @Override
    public CompletableFuture<ReleaseReply> release(LockKeys keys, String holderId, String holdId) {
        long mark = acks.mark();
        return acknowledged(keys, "release", mark, delegate.release(keys, holderId, holdId), ReleaseReply::changed);
    }

    @Override
    public CompletableFuture<ReleaseReply> releaseInOrder(LockKeys keys, String holderId, String holdId) {
        long mark = acks.mark();
        return acknowledged(keys, "release", mark, delegate.releaseInOrder(keys, holderId, holdId),
                ReleaseReply::changed);
    }

    @Override
    public CompletableFuture<ReleaseReply> releaseKeeping(LockKeys keys, String holderId, String holdId,
                                                         long keepMillis) {
        long mark = acks.mark();
        return acknowledged(keys, "release", mark, delegate.releaseKeeping(keys, holderId, holdId, keepMillis),
                ReleaseReply::changed);
    }

    @Override
    public long answerKeptMillis() {
        return delegate.answerKeptMillis();
    }

    @Override
    public boolean canKeep() {
        return delegate.canKeep();
    }

    /**
     * Not waited for: it neither takes nor frees the lock, and a promoted replica that missed it
     * still has the lease the composite acquired the hold with, the watchdog's.
     */
    @Override
    public CompletableFuture<Boolean> setLease(LockKeys keys, HoldRef hold, long leaseMillis, boolean exact) {
        return delegate.setLease(keys, hold, leaseMillis, exact);
    }

    @Override
    public CompletableFuture<Long> forceUnlock(LockKeys keys, String callId) {
        long mark = acks.mark();
        return acknowledged(keys, "forced release", mark, delegate.forceUnlock(keys, callId), deleted -> deleted == 1L);
    }

    /** Waits for the replicas unless the result says Redis changed nothing (nothing to replicate). */
    private <T> CompletableFuture<T> acknowledged(LockKeys keys, String what, long mark, CompletableFuture<T> change,
                                                  Predicate<T> changed) {
        return change.thenCompose(result -> !changed.test(result) ? CompletableFuture.completedFuture(result)
                : acks.await(keys.lockKey(), mark).handle((ok, error) -> {
                    if (error != null) {
                        warnUnconfirmed(keys, what, error);
                    }
                    return result;
                }));
    }

    private void warnUnconfirmed(LockKeys keys, String what, Throwable error) {
        LOG.log(Level.WARNING, () -> "The " + what + " of " + keys.lockKey() + " is done on the master, but not "
                + "confirmed: " + RedisFailures.unwrap(error).getMessage() + ". A failover now could bring the lock "
                + "back until its lease ends");
    }

    @Override
    public String waitChannel(LockKeys keys, String clientId) {
        return delegate.waitChannel(keys, clientId);
    }

    @Override
    public CompletableFuture<?> leave(LockKeys keys, String holdId) {
        return delegate.leave(keys, holdId);
    }

    @Override
    public boolean reentryTakesFromOthers() {
        return delegate.reentryTakesFromOthers();
    }

    @Override
    public String holderField(String holderId) {
        return delegate.holderField(holderId);
    }

    @Override
    public CompletableFuture<List<Long>> renew(List<Hold> holds, List<String> holdIds, long leaseMillis) {
        return delegate.renew(holds, holdIds, leaseMillis);
    }

    @Override
    public CompletableFuture<Long> leaseLeft(LockKeys keys, HoldRef hold) {
        return delegate.leaseLeft(keys, hold);  // reads only: nothing for replicas to acknowledge
    }
}

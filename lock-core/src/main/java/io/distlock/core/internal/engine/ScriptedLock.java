package io.distlock.core.internal.engine;

import io.distlock.core.LockLostException;
import io.distlock.core.RedisLock;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * A {@link RedisLock} whose Redis side is a {@link LockProtocol}: all the {@code Lock} semantics
 * (thread holders, blocking and async acquisition, leases, retry-safe release, lost leases) in one
 * place for every kind of lock.
 */
class ScriptedLock implements RedisLock, SettableLease, RetrySafeRelease {

    private final LockRef ref;
    private final String name;
    private final String clientId;
    private final Acquisitions acquisitions;
    private final Releases releases;
    private final RedisCalls redis;
    private final HoldRegistry holds;

    /**
     * @param ref          the lock
     * @param clientId     the client's id: holder ids of its threads start with it
     * @param acquisitions acquires it
     * @param releases     releases it
     * @param redis        asks Redis about it
     * @param holds        the client's holds
     */
    ScriptedLock(LockRef ref, String clientId, Acquisitions acquisitions, Releases releases, RedisCalls redis,
                 HoldRegistry holds) {
        this.ref = ref;
        this.name = ref.name();
        this.clientId = clientId;
        this.acquisitions = acquisitions;
        this.releases = releases;
        this.redis = redis;
        this.holds = holds;
    }

    @Override
    public String getName() {
        return name;
    }

    /** @return the lock as the engine addresses it */
    LockRef ref() {
        return ref;
    }

    /** @return the client's holds */
    HoldRegistry holds() {
        return holds;
    }

    @Override
    public void lock() {
        acquireUninterruptibly(Lease.watchdog());
    }

    @Override
    public void lock(long leaseTime, TimeUnit unit) {
        acquireUninterruptibly(Lease.of(leaseTime, unit));
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        acquire(Wait.forever(), Lease.watchdog(), true);
    }

    @Override
    public boolean tryLock() {
        try {
            return acquire(Wait.none(), Lease.watchdog(), false) != null;
        } catch (InterruptedException e) {
            throw new IllegalStateException("an uninterruptible wait was interrupted", e);
        }
    }

    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        return acquire(waitOf(time, unit), Lease.watchdog(), true) != null;
    }

    @Override
    public boolean tryLock(long waitTime, long leaseTime, TimeUnit unit) throws InterruptedException {
        return acquire(waitOf(waitTime, unit), Lease.of(leaseTime, unit), true) != null;
    }

    @Override
    public void unlock() {
        // No limit of its own: the release bounds each of its Redis calls and decides by itself
        // whether an answer came in time (RedisCalls.inTime), so what the caller is told and the
        // holder's books never part.
        Blocking.awaitUninterruptibly(release(currentHolder()), Wait.forever(), "release lock '" + name + "'");
    }

    @Override
    public CompletableFuture<Boolean> tryLockAsync(long waitTime, long leaseTime, TimeUnit unit, String holderId) {
        checkHolder(holderId);
        return acquisitions.acquireAsync(ref, holderId, waitOf(waitTime, unit), Lease.of(leaseTime, unit));
    }

    @Override
    public CompletableFuture<Void> unlockAsync(String holderId) {
        checkHolder(holderId);
        return redis.forCaller(release(holderId));
    }

    @Override
    public CompletableFuture<Void> unlockKeepingAsync(String holderId, Duration keep) {
        checkHolder(holderId);
        Objects.requireNonNull(keep, "keep must not be null");
        if (keep.isNegative() || keep.isZero()) {
            throw new IllegalArgumentException("keep must be positive, was " + keep);
        }
        if (!ref.protocol().canKeep()) {
            return CompletableFuture.failedFuture(new UnsupportedOperationException("Lock '" + name + "' is a "
                    + ref.protocol().type() + " lock, which cannot be kept taken after its release; reentrant and fenced "
                    + "locks can"));
        }
        return redis.forCaller(releases.release(ref, holderId, null, keep.toMillis()));
    }

    @Override
    public CompletableFuture<Void> leaseFromNow(String holderId, Lease lease, long acquiringSinceNanos) {
        checkHolder(holderId);
        return acquisitions.leaseFromNow(ref, holderId, lease, acquiringSinceNanos);
    }

    @Override
    public CompletableFuture<Void> leaseFromNow(Lease lease, long acquiringSinceNanos) {
        return leaseFromNow(currentHolder(), lease, acquiringSinceNanos);
    }

    @Override
    public boolean isLocked() {
        return redis.sync("check lock of '" + name + "'", commands -> commands.exists(ref.keys().lockKey())) > 0;
    }

    @Override
    public boolean isHeldByCurrentThread() {
        return isHeldBy(currentHolder());
    }

    @Override
    public boolean isHeldBy(String holderId) {
        checkHolder(holderId);
        return redis.sync("check lock of '" + name + "'",
                commands -> commands.hexists(ref.keys().lockKey(), ref.protocol().holderField(holderId)));
    }

    @Override
    public CompletionStage<LockLostException> whenLost() {
        return whenLost(currentHolder());
    }

    @Override
    public CompletionStage<LockLostException> whenLost(String holderId) {
        checkHolder(holderId);
        CompletableFuture<LockLostException> signal = holds.lossSignal(ref.keys(), ref.protocol(), holderId);
        if (signal == null) {
            throw new IllegalMonitorStateException("Lock '" + name + "' is not held by "
                    + ThreadHolder.describe(holderId, clientId) + ": there is no lease whose loss to signal");
        }
        return signal;  // completed on the client's caller threads
    }

    @Override
    public boolean confirmHeld(Duration minLease) {
        return confirmHeld(currentHolder(), minLease);
    }

    @Override
    public boolean confirmHeld(String holderId, Duration minLease) {
        checkHolder(holderId);
        long minMillis = checkMinLease(minLease);
        HoldRef held = confirmedHold(holderId);
        if (held == null) {
            return false;
        }
        long sentNanos = System.nanoTime();
        return leaseAtLeast(redis.sync("confirm the hold of lock '" + name + "'",
                commands -> ref.protocol().leaseLeft(ref.keys(), held)), minMillis, sentNanos);
    }

    @Override
    public CompletableFuture<Boolean> confirmHeldAsync(String holderId, Duration minLease) {
        checkHolder(holderId);
        long minMillis = checkMinLease(minLease);
        HoldRef held = confirmedHold(holderId);
        if (held == null) {
            return CompletableFuture.completedFuture(false);
        }
        String what = "confirm the hold of lock '" + name + "'";
        long sentNanos = System.nanoTime();
        return redis.forCaller(redis.inTime(ref.protocol().leaseLeft(ref.keys(), held)).handle((left, error) -> {
            if (error != null) {
                throw RedisFailures.translate(what, error);
            }
            return leaseAtLeast(left, minMillis, sentNanos);
        }));
    }

    /**
     * @return a hold of the holder's that Redis confirmed and nobody is releasing, unless its lease
     *         is known lost: what to ask Redis about; {@code null} if there is none
     */
    private @Nullable HoldRef confirmedHold(String holderId) {
        Hold hold = holds.hold(ref.keys(), ref.protocol(), holderId);
        String holdId = hold == null || hold.lost() ? null : hold.latestHoldId();
        return holdId == null ? null : new HoldRef(holderId, holdId);
    }

    /**
     * @param leftMillis what {@code lease_left.lua} answered: -1 no expiry, -2 not held
     * @param sentNanos  {@link System#nanoTime()} when it was asked: the lease was measured on the
     *                   server since then, so the time the answer took counts against it
     */
    private static boolean leaseAtLeast(long leftMillis, long minMillis, long sentNanos) {
        long answeredAfterMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sentNanos);
        return leftMillis == -1 || (leftMillis >= 0 && leftMillis - answeredAfterMillis >= minMillis);
    }

    private static long checkMinLease(Duration minLease) {
        Objects.requireNonNull(minLease, "minLease must not be null");
        if (minLease.isNegative()) {
            throw new IllegalArgumentException("minLease must not be negative, but was " + minLease);
        }
        long millis = TimeUnit.MILLISECONDS.convert(minLease);  // saturated at Long.MAX_VALUE
        return millis < Long.MAX_VALUE && Duration.ofMillis(millis).compareTo(minLease) < 0
                ? millis + 1 : millis;  // rounded up
    }

    @Override
    public int getHoldCount() {
        String holder = currentHolder();
        String count = redis.sync("check lock of '" + name + "'",
                commands -> commands.hget(ref.keys().lockKey(), ref.protocol().holderField(holder)));
        return count == null ? 0 : Integer.parseInt(count);
    }

    @Override
    public long remainingTimeToLive() {
        return redis.sync("read the lease of '" + name + "'", commands -> commands.pttl(ref.keys().lockKey()));
    }

    @Override
    public boolean forceUnlock() {
        return releases.forceUnlock(ref);
    }

    /**
     * Acquires for the calling thread.
     *
     * @param wait          how long to wait; none tries once
     * @param lease         the lease asked for
     * @param interruptible whether an interrupt ends the wait
     * @return the hold, or {@code null} if the wait time elapsed
     * @throws InterruptedException if interruptible and interrupted; nothing is held then
     */
    private @Nullable Hold acquire(Wait wait, Lease lease, boolean interruptible) throws InterruptedException {
        return acquisitions.acquire(ref, currentHolder(), wait, lease, interruptible);
    }

    private void acquireUninterruptibly(Lease lease) {
        try {
            acquire(Wait.forever(), lease, false);
        } catch (InterruptedException e) {
            throw new IllegalStateException("an uninterruptible wait was interrupted", e);
        }
    }

    /**
     * Releases the holder's latest hold (see {@link Releases#release}).
     *
     * @param holderId the holder
     * @return completes when Redis confirmed the release
     */
    private CompletableFuture<Void> release(String holderId) {
        return releases.release(ref, holderId, null, 0);
    }

    /** @return the holder id of the calling thread in this client */
    String currentHolder() {
        return ThreadHolder.id(clientId);
    }

    /** @return how long the public API's {@code waitTime} asks to wait */
    private static Wait waitOf(long time, TimeUnit unit) {
        Objects.requireNonNull(unit, "unit must not be null");
        return Wait.of(time, unit);
    }

    private static void checkHolder(String holderId) {
        Objects.requireNonNull(holderId, "holderId must not be null");
        if (holderId.isBlank()) {
            throw new IllegalArgumentException("holderId must not be blank");
        }
        if (holderId.startsWith("#")) {
            // Fields starting with '#' are the lock hash's own: hold markers, '#yield', '#kept'.
            throw new IllegalArgumentException("holderId must not start with '#', but was '" + holderId + "'");
        }
    }

    @Override
    public String toString() {
        return ref.protocol().type() + " lock '" + name + "'";
    }
}

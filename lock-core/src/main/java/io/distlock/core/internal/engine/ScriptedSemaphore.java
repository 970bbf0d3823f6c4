package io.distlock.core.internal.engine;

import io.distlock.core.LockLostException;
import io.distlock.core.RedisLock;
import io.distlock.core.RedisSemaphore;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * A {@link RedisSemaphore} as a {@link ScriptedLock} of the {@link SemaphoreProtocol}: every hold
 * is one permit, so acquiring, leases, the watchdog, retry-safe release, lost leases and events
 * are the locks' own.
 */
final class ScriptedSemaphore implements RedisSemaphore {

    private final ScriptedLock permit;
    private final SemaphoreProtocol semaphore;
    private final RedisCalls redis;

    /**
     * @param permit    the semaphore as a lock whose holds are permits
     * @param semaphore its Redis side, for what only a semaphore has (its permit count)
     * @param redis     asks Redis about it
     */
    ScriptedSemaphore(ScriptedLock permit, SemaphoreProtocol semaphore, RedisCalls redis) {
        this.permit = permit;
        this.semaphore = semaphore;
        this.redis = redis;
    }

    @Override
    public String getName() {
        return permit.getName();
    }

    @Override
    public int permits() {
        return semaphore.permits();
    }

    @Override
    public void acquire() throws InterruptedException {
        permit.lockInterruptibly();
    }

    @Override
    public boolean tryAcquire() {
        return permit.tryLock();
    }

    @Override
    public boolean tryAcquire(long waitTime, TimeUnit unit) throws InterruptedException {
        return permit.tryLock(waitTime, unit);
    }

    @Override
    public boolean tryAcquire(long waitTime, long leaseTime, TimeUnit unit) throws InterruptedException {
        return permit.tryLock(waitTime, leaseTime, unit);
    }

    @Override
    public void release() {
        permit.unlock();
    }

    @Override
    public CompletableFuture<Boolean> tryAcquireAsync(long waitTime, long leaseTime, TimeUnit unit, String holderId) {
        return permit.tryLockAsync(waitTime, leaseTime, unit, holderId);
    }

    @Override
    public CompletableFuture<Void> releaseAsync(String holderId) {
        return permit.unlockAsync(holderId);
    }

    @Override
    public int heldPermits() {
        return permit.getHoldCount();
    }

    @Override
    public int availablePermits() {
        List<Long> read = readPermits(0);
        return read.get(0) == 0L ? permits() : (int) (read.get(0) - read.get(1));
    }

    @Override
    public boolean setPermits(int permits) {
        checkPermits(permits);
        return readPermits(permits).get(0) != 0L;
    }

    /** @see SemaphoreProtocol#permits(LockKeys, int) */
    private List<Long> readPermits(int newPermits) {
        LockKeys keys = permit.ref().keys();
        return redis.sync("read the permits of semaphore '" + getName() + "'",
                commands -> semaphore.permits(keys, newPermits));
    }

    /**
     * @param permits a permit count
     * @throws IllegalArgumentException unless it is positive
     */
    static void checkPermits(int permits) {
        if (permits <= 0) {
            throw new IllegalArgumentException("permits must be positive, but was " + permits);
        }
    }

    @Override
    public CompletionStage<LockLostException> whenLost() {
        return permit.whenLost();
    }

    @Override
    public CompletionStage<LockLostException> whenLost(String holderId) {
        return permit.whenLost(holderId);
    }

    @Override
    public boolean confirmHeld(Duration minLease) {
        return permit.confirmHeld(minLease);
    }

    @Override
    public boolean confirmHeld(String holderId, Duration minLease) {
        return permit.confirmHeld(holderId, minLease);
    }

    @Override
    public boolean forceReleaseAll() {
        return permit.forceUnlock();
    }

    @Override
    public RedisLock asLock() {
        return permit;
    }

    @Override
    public String toString() {
        return "semaphore '" + getName() + "' of " + permits() + " permits";
    }
}

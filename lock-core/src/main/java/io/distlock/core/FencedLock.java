package io.distlock.core;

import org.jspecify.annotations.Nullable;

import java.util.concurrent.TimeUnit;

/**
 * A reentrant {@link RedisLock} whose every acquisition gets a fencing token: a number that
 * increases strictly across all acquisitions of the lock's name, by any client, also after client
 * restarts (the counter lives in Redis, next to the lock, and is taken in the same round trip).
 * Re-entering a hold keeps its token. A holder that already holds the name through a lock of
 * another kind (e.g. {@link LockClient#getLock(String)}) gets a token of its own, newer than every
 * earlier one, at its first fenced acquisition, and keeps it for the rest of that hold.
 *
 * <p>Pass the token to the storage the lock protects and have the storage reject a write whose
 * token is lower than one it has already seen. A holder that was paused past its lease (GC,
 * SIGSTOP, a slow network) then cannot overwrite the work of the holder that came after it: the
 * gap a lease-based lock alone cannot close.
 *
 * <pre>{@code
 * FencedLock lock = client.getFencedLock("ledger:1");
 * long token = lock.lockAndGetToken();
 * try {
 *     ledger.append(entry, token);   // the ledger refuses tokens older than the newest it saw
 * } finally {
 *     lock.unlock();
 * }
 * }</pre>
 */
public interface FencedLock extends RedisLock {

    /**
     * @return the token of the calling thread's current hold
     * @throws IllegalMonitorStateException if the calling thread does not hold the lock
     */
    long getToken();

    /**
     * @param holderId an explicit holder (see {@link #tryLockAsync(long, long, TimeUnit, String)})
     * @return the token of that holder's current hold
     * @throws IllegalMonitorStateException if the holder does not hold the lock
     */
    long getToken(String holderId);

    /**
     * Acquires the lock like {@link #lock()}, watchdog lease, and returns the hold's token.
     *
     * @return the token
     * @throws LockException if Redis cannot be reached or does not answer in time
     */
    long lockAndGetToken();

    /**
     * Tries to acquire the lock like {@link #tryLock(long, long, TimeUnit)}.
     *
     * @param waitTime  how long to wait; {@code 0} tries once
     * @param leaseTime lease; {@code <= 0} means watchdog renewal until unlock
     * @param unit      unit of both times
     * @return the hold's token, or {@code null} if the wait time elapsed
     * @throws InterruptedException if interrupted while waiting; nothing is held then
     * @throws LockException        if Redis cannot be reached or does not answer in time
     */
    @Nullable Long tryLockAndGetToken(long waitTime, long leaseTime, TimeUnit unit) throws InterruptedException;
}

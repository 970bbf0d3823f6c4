package io.distlock.core;

import java.time.Duration;
import java.util.concurrent.CompletionStage;

/**
 * A lock acquired by {@link LockTemplate#acquire} (or a semaphore permit taken by
 * {@link LockTemplate#acquirePermit}), released by {@link #close()}, so
 * try-with-resources scopes the critical section:
 *
 * <pre>{@code
 * try (LockHandle handle = template.acquire("order:42", Duration.ofSeconds(3), null)) {
 *     ...
 * }
 * }</pre>
 *
 * Close it on the thread that acquired it. Closing twice releases once.
 */
public final class LockHandle implements AutoCloseable {

    private final RedisLock lock;
    private boolean released;

    LockHandle(RedisLock lock) {
        this.lock = lock;
    }

    /** @return the lock's name */
    public String name() {
        return lock.getName();
    }

    /** @return the held lock, e.g. to read {@link RedisLock#remainingTimeToLive()} */
    public RedisLock lock() {
        return lock;
    }

    /**
     * @return completes, with what happened, if the lease is lost while the handle is open: stop
     *         the work then (see {@link RedisLock#whenLost(String)}); never for a lock released by
     *         {@link #close()}
     * @throws IllegalMonitorStateException if the calling thread does not hold the lock (call it on
     *                                      the thread that acquired it, before closing)
     */
    public CompletionStage<LockLostException> whenLost() {
        return lock.whenLost();
    }

    /**
     * Asks Redis, in one round trip, whether the lock is still held with at least {@code minLease}
     * of its lease left: the check before a step that cannot be undone (see
     * {@link RedisLock#confirmHeld(String, Duration)}). Call it on the thread that acquired it.
     *
     * @param minLease the least lease that must be left; zero for "still held"
     * @return whether Redis confirmed it
     * @throws LockException if Redis failed or did not answer in time
     */
    public boolean confirmHeld(Duration minLease) {
        return lock.confirmHeld(minLease);
    }

    /**
     * Releases the lock.
     *
     * @throws LockLostException if the lease was lost while held
     */
    @Override
    public void close() {
        if (!released) {
            released = true;
            lock.unlock();
        }
    }
}

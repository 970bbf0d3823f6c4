package io.distlock.core;

/**
 * A lock acquired by {@link LockTemplate#acquire}, released by {@link #close()}, so
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

package io.distlock.core;

/**
 * A read-write lock in Redis, usable from any number of JVMs: many readers at once, or one
 * writer. Both halves are reentrant {@link RedisLock}s with leases, watchdog renewal and
 * lost-lease reporting. A writer may also take the read lock (downgrade: take read, then release
 * write); a reader asking for the write lock fails at once with
 * {@link IllegalMonitorStateException} instead of deadlocking. Each reader's hold has a lease of
 * its own, so a dead reader cannot keep the lock beyond it. Readers are preferred: a steady
 * stream of readers can keep a writer waiting.
 *
 * <pre>{@code
 * RedisReadWriteLock prices = client.getReadWriteLock("price-list");
 * prices.readLock().lock();
 * try { return read(); } finally { prices.readLock().unlock(); }
 * }</pre>
 */
public interface RedisReadWriteLock {

    /** @return the lock's name */
    String getName();

    /** @return the shared half */
    RedisLock readLock();

    /** @return the exclusive half */
    RedisLock writeLock();
}

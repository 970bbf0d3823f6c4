package io.distlock.core.internal.engine;

import io.distlock.core.RedisLock;
import io.distlock.core.RedisReadWriteLock;

/**
 * A {@link RedisReadWriteLock}: two {@link ScriptedLock}s over the same keys, one per half.
 *
 * @param getName   the lock's name
 * @param readLock  the read half
 * @param writeLock the write half
 */
record ScriptedReadWriteLock(String getName, RedisLock readLock, RedisLock writeLock)
        implements RedisReadWriteLock {
}

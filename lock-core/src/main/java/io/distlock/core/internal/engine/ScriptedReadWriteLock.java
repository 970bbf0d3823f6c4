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
public record ScriptedReadWriteLock(String getName, RedisLock readLock, RedisLock writeLock)
        implements RedisReadWriteLock {

    /**
     * @param engine the client's engine
     * @param id     lock name (already checked) and group
     * @return the lock
     */
    public static ScriptedReadWriteLock of(LockEngine engine, LockId id) {
        return new ScriptedReadWriteLock(id.name(), new ScriptedLock(engine, id, engine.read()),
                new ScriptedLock(engine, id, engine.write()));
    }
}

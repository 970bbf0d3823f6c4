package io.distlock.spring.aop;

import io.distlock.core.LockClient;
import io.distlock.core.RedLock;
import io.distlock.core.RedisLock;
import io.distlock.spring.LockType;

import java.util.List;

/**
 * Gets the lock of a {@link LockType} for one lock name, counted in metrics under the
 * annotation's static name.
 */
final class TypedLocks {

    private final LockClient client;
    private final List<LockClient> redLockMasters;

    /**
     * @param client         the client of everything but RedLock
     * @param redLockMasters one client per independent RedLock master
     */
    TypedLocks(LockClient client, List<LockClient> redLockMasters) {
        this.client = client;
        this.redLockMasters = redLockMasters;
    }

    /** @return the client of everything but RedLock */
    LockClient client() {
        return client;
    }

    /**
     * @param type    the kind
     * @param name    the full lock name
     * @param group   the static name
     * @param permits the permit count of a {@link LockType#SEMAPHORE}, else unused
     * @return the lock: for a semaphore, one permit of it
     */
    RedisLock lock(LockType type, String name, String group, int permits) {
        return switch (type) {
            case REENTRANT -> client.getLock(name, group);
            case FAIR -> client.getFairLock(name, group);
            case READ -> client.getReadWriteLock(name, group).readLock();
            case WRITE -> client.getReadWriteLock(name, group).writeLock();
            case FENCED -> client.getFencedLock(name, group);
            case RED_LOCK -> new RedLock(redLockMasters.stream()
                    .map(node -> node.getLock(name, group)).toArray(RedisLock[]::new));
            case SEMAPHORE -> client.getSemaphore(name, group, permits).asLock();
        };
    }
}

package io.distlock.spring;

import io.distlock.core.LockClient;
import io.distlock.core.RedLock;
import io.distlock.core.RedisLock;

/**
 * Gets the lock of a {@link LockType} for one lock name, counted in metrics under the
 * annotation's static name.
 */
final class TypedLocks {

    private final LockClient client;
    private final RedLockNodes redLockNodes;

    TypedLocks(LockClient client, RedLockNodes redLockNodes) {
        this.client = client;
        this.redLockNodes = redLockNodes;
    }

    /** @return the client of everything but RedLock */
    LockClient client() {
        return client;
    }

    /**
     * @param type  the kind
     * @param name  the full lock name
     * @param group the static name
     * @return the lock
     */
    RedisLock lock(LockType type, String name, String group) {
        return switch (type) {
            case REENTRANT -> client.getLock(name, group);
            case FAIR -> client.getFairLock(name, group);
            case READ -> client.getReadWriteLock(name, group).readLock();
            case WRITE -> client.getReadWriteLock(name, group).writeLock();
            case FENCED -> client.getFencedLock(name, group);
            case RED_LOCK -> new RedLock(redLockNodes.clients().stream()
                    .map(node -> node.getLock(name, group)).toArray(RedisLock[]::new));
        };
    }
}

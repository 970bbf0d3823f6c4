package io.distlock.core;

/** The lock kinds of one client that a test runs the same scenario on. */
final class LockKinds {

    private LockKinds() {
    }

    /**
     * @param client the client
     * @param name   the lock name all of them share
     * @return a reentrant, a fair and a fenced lock, and the read and write halves of a read-write
     *         lock, all of that name
     */
    static RedisLock[] every(LockClient client, String name) {
        RedisReadWriteLock readWrite = client.getReadWriteLock(name);
        return new RedisLock[] {client.getLock(name), client.getFairLock(name), client.getFencedLock(name),
                readWrite.readLock(), readWrite.writeLock()};
    }
}

package io.distlock.benchmarks;

import io.distlock.core.LockClient;
import io.distlock.core.MultiLock;

import java.util.Arrays;

import java.util.concurrent.locks.Lock;

/** The distlock engine with its default settings, as an application would use it. */
final class DistlockBackend implements LockBackend {

    private final LockClient client;

    private DistlockBackend(LockClient client) {
        this.client = client;
    }

    /**
     * @param redisUri  the Redis to use
     * @param keyPrefix prefix of every key of this backend
     * @return the connected backend
     */
    static DistlockBackend connect(String redisUri, String keyPrefix) {
        return new DistlockBackend(LockClient.builder().redisUri(redisUri).keyPrefix(keyPrefix).build());
    }

    @Override
    public String name() {
        return "distlock";
    }

    @Override
    public Lock lock(String name) {
        return client.getLock(name);
    }

    @Override
    public Lock fairLock(String name) {
        return client.getFairLock(name);
    }

    @Override
    public Lock readLock(String name) {
        return client.getReadWriteLock(name).readLock();
    }

    @Override
    public Lock multiLock(String... names) {
        return new MultiLock(Arrays.stream(names).map(client::getLock).toList());
    }

    @Override
    public void close() {
        client.close();
    }
}

package io.distlock.benchmarks;

import io.distlock.core.LockClient;
import io.distlock.core.LockEvent;
import io.distlock.core.LockListener;
import io.distlock.core.MultiLock;
import io.distlock.core.internal.engine.LockEngine;

import java.time.Duration;
import java.util.Arrays;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;

/** The distlock engine with its default settings, as an application would use it. */
final class DistlockBackend implements LockBackend {

    private final LockClient client;
    private final WatchdogCounters counters;

    private DistlockBackend(LockClient client, WatchdogCounters counters) {
        this.client = client;
        this.counters = counters;
    }

    /**
     * @param redisUri  the Redis to use
     * @param keyPrefix prefix of every key of this backend
     * @return the connected backend
     */
    static DistlockBackend connect(String redisUri, String keyPrefix) {
        return new DistlockBackend(LockClient.builder().redisUri(redisUri).keyPrefix(keyPrefix).build(), null);
    }

    /**
     * A client for the watchdog scenario: the given watchdog timeout, and a listener counting lost
     * locks and failed renewals, and renewals too if asked (then the engine builds an event per
     * renewal, as it does for an application with the starter's meters).
     *
     * @param redisUri        the Redis to use
     * @param keyPrefix       prefix of every key of this backend
     * @param options         the scenario: its watchdog timeout (lease of locks taken without one,
     *                        renewed every third of it) and whether to count renewals
     * @return the connected backend
     */
    static DistlockBackend connectWatchdog(String redisUri, String keyPrefix, WatchdogOptions options) {
        WatchdogCounters counters = options.renewalListener() ? new RenewalCounters() : new WatchdogCounters();
        return new DistlockBackend(LockClient.builder().redisUri(redisUri).keyPrefix(keyPrefix)
                .watchdogTimeout(options.timeout()).listener(counters).build(), counters);
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
    public Lock permit(String name, int permits) {
        return client.getSemaphore(name, permits).asLock();
    }

    @Override
    public int watchdogBatchSize() {
        return LockEngine.RENEWAL_BATCH_SIZE;
    }

    @Override
    public OptionalLong lostLocks() {
        return counters == null ? OptionalLong.empty() : OptionalLong.of(counters.lost.get());
    }

    @Override
    public OptionalLong renewalFailures() {
        return counters == null ? OptionalLong.empty() : OptionalLong.of(counters.renewalFailures.get());
    }

    @Override
    public void close() {
        client.close();
    }

    /** Counts the engine's lost-lock and failed-renewal events. */
    private static class WatchdogCounters implements LockListener {
        private final AtomicLong lost = new AtomicLong();
        private final AtomicLong renewalFailures = new AtomicLong();

        @Override
        public void onLost(LockEvent event) {
            lost.incrementAndGet();
        }

        @Override
        public void onRenewalFailed(LockEvent event) {
            renewalFailures.incrementAndGet();
        }
    }

    /** Counts renewals too, as the starter's meters do: the engine then builds an event per renewal. */
    private static final class RenewalCounters extends WatchdogCounters {
        private final AtomicLong renewed = new AtomicLong();

        @Override
        public void onRenewed(LockEvent event) {
            renewed.incrementAndGet();
        }
    }
}

package io.distlock.benchmarks;

import io.lettuce.core.RedisCredentials;
import io.lettuce.core.RedisURI;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RPermitExpirableSemaphore;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.redisson.config.Credentials;

import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;

/** Redisson's {@code RLock}, configured for this workload, as the comparison baseline. */
final class RedissonBackend implements LockBackend {

    /** Redisson's default command connection pool size. */
    private static final int DEFAULT_POOL_SIZE = 64;

    private final RedissonClient client;
    private final String namePrefix;

    private RedissonBackend(RedissonClient client, String namePrefix) {
        this.client = client;
        this.namePrefix = namePrefix;
    }

    /**
     * @param redisUri   the Redis to use
     * @param namePrefix prefix of every lock name of this backend
     * @param threads    the most threads that will use locks at once
     * @return the connected backend
     */
    static RedissonBackend connect(String redisUri, String namePrefix, int threads) {
        return new RedissonBackend(Redisson.create(config(RedisURI.create(redisUri), threads)), namePrefix);
    }

    /**
     * A client for the watchdog scenario: the settings of {@link #config} for one thread, with the
     * given {@code lockWatchdogTimeout} (its renewal batch size stays at Redisson's default).
     *
     * @param redisUri        the Redis to use
     * @param namePrefix      prefix of every lock name of this backend
     * @param watchdogTimeout lease of locks taken without one, renewed every third of it
     * @return the connected backend
     */
    static RedissonBackend connectWatchdog(String redisUri, String namePrefix, Duration watchdogTimeout) {
        Config config = config(RedisURI.create(redisUri), 1);
        config.setLockWatchdogTimeout(watchdogTimeout.toMillis());
        return new RedissonBackend(Redisson.create(config), namePrefix);
    }

    /**
     * Redisson's best settings for many threads locking on one server.
     * <ul>
     *   <li>Script cache on: every lock script is sent as EVALSHA with a 40-byte digest instead of
     *       EVAL with the whole Lua source (the default of this version, set to make it explicit).</li>
     *   <li>Connection pool: Redisson gives each command a pooled connection of its own until the
     *       reply arrives (no pipelining across threads on one connection), so the pool must hold at
     *       least one connection per thread, plus headroom for lease renewals and unlock messages;
     *       the default 64 already does for up to 63 threads, and grows with the thread count.</li>
     *   <li>Minimum idle connections = thread count: all connections a measurement needs are open
     *       before it starts, so none is opened inside a measured {@code lock()}.</li>
     *   <li>Netty I/O threads = 2 x cores (Netty's own default) instead of Redisson's fixed 32,
     *       which is sized for large servers: on small machines 32 event loops spread the pooled
     *       connections over more threads than cores and lose time switching between them (on the
     *       2-core machine this harness was written on, 2 x cores gave clearly more uncontended
     *       pairs/s than 32, and no fewer contended hand-offs/s).</li>
     *   <li>Everything else (timeouts, retries, subscription pool, codec, 30 s watchdog lease)
     *       stays at Redisson's defaults, as distlock's do.</li>
     * </ul>
     */
    private static Config config(RedisURI uri, int threads) {
        Config config = new Config();
        config.setUseScriptCache(true);
        config.setNettyThreads(2 * Runtime.getRuntime().availableProcessors());
        int poolSize = Math.max(DEFAULT_POOL_SIZE, threads + 1);
        config.useSingleServer()
                .setAddress(address(uri))
                .setDatabase(uri.getDatabase())
                .setConnectionPoolSize(poolSize)
                .setConnectionMinimumIdleSize(threads);
        // On the Config, not the server settings: Redisson 4 deprecates credentials per server.
        credentials(uri).ifPresent(credentials -> config.setUsername(credentials.getUsername())
                .setPassword(credentials.getPassword()));
        return config;
    }

    /** The user and password of the URI, as Lettuce (and so distlock) reads them. */
    private static Optional<Credentials> credentials(RedisURI uri) {
        // A URI's own credentials come from a provider that answers at once (not always an
        // ImmediateRedisCredentialsProvider: Lettuce 7 makes it a lambda).
        RedisCredentials given = uri.getCredentialsProvider().resolveCredentials().block();
        if (given == null || !given.hasPassword()) {
            return Optional.empty();
        }
        return Optional.of(new Credentials(given.hasUsername() ? given.getUsername() : null,
                new String(given.getPassword())));
    }

    private static String address(RedisURI uri) {
        String host = uri.getHost().contains(":") ? "[" + uri.getHost() + "]" : uri.getHost();
        return (uri.isSsl() ? "rediss://" : "redis://") + host + ":" + uri.getPort();
    }

    @Override
    public String name() {
        return "redisson";
    }

    @Override
    public Lock lock(String name) {
        return client.getLock(namePrefix + name);
    }

    @Override
    public Lock fairLock(String name) {
        return client.getFairLock(namePrefix + name);
    }

    @Override
    public Lock readLock(String name) {
        return client.getReadWriteLock(namePrefix + name).readLock();
    }

    @Override
    public Lock multiLock(String... names) {
        return client.getMultiLock(Arrays.stream(names).map(name -> client.getLock(namePrefix + name))
                .toArray(RLock[]::new));
    }

    /**
     * A permit of Redisson's {@code RPermitExpirableSemaphore}, the one whose permits have ids (so a
     * permit is given back by its holder) like distlock's: acquired without a lease, since Redisson
     * does not renew a permit's lease.
     */
    @Override
    public Lock permit(String name, int permits) {
        RPermitExpirableSemaphore semaphore = client.getPermitExpirableSemaphore(namePrefix + name);
        semaphore.trySetPermits(permits);
        return new PermitLock(semaphore);
    }

    @Override
    public int watchdogBatchSize() {
        return client.getConfig().getLockWatchdogBatchSize();
    }

    /** @return empty: Redisson does not report a lock whose lease was lost */
    @Override
    public OptionalLong lostLocks() {
        return OptionalLong.empty();
    }

    /** @return empty: Redisson does not report a failed lease renewal */
    @Override
    public OptionalLong renewalFailures() {
        return OptionalLong.empty();
    }

    @Override
    public void close() {
        client.shutdown(0, 5, TimeUnit.SECONDS);
    }
}

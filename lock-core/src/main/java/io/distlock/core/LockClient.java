package io.distlock.core;

import io.distlock.core.internal.engine.LockEngine;
import io.distlock.core.internal.engine.LockId;
import io.distlock.core.internal.engine.LockEvents;
import io.distlock.core.internal.engine.LockObservations;
import io.distlock.core.internal.engine.MicrometerLockObservations;
import io.distlock.core.internal.engine.RedisConnector;
import io.distlock.core.internal.engine.RedisTarget;
import io.distlock.core.internal.engine.ReplicaAcks;
import io.distlock.core.metrics.LockMetrics;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SslOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.resource.ClientResources;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;


/**
 * Entry point of the lock engine: connects to Redis and hands out locks.
 *
 * <pre>{@code
 * try (LockClient client = LockClient.builder().redisUri("redis://localhost:6379").build()) {
 *     RedisLock lock = client.getLock("order:42");
 *     lock.lock();
 *     try { ... } finally { lock.unlock(); }
 * }
 * }</pre>
 *
 * <p>One client uses two Redis connections, whatever the number of locks and threads: one shared
 * command connection (pipelined by Lettuce) and one pub/sub connection for wake-ups (on a Redis
 * Cluster, Lettuce's cluster connections, which route each command to its slot's node), plus one
 * scheduler thread for wait timeouts and lease renewal and, once a listener is registered, one
 * thread that delivers its events in order, and pooled threads that complete the futures of the
 * {@code *Async} methods. Create one per application and share it;
 * it is thread-safe. {@link #close()} stops lease renewal (held locks then expire after at most one
 * watchdog timeout) and closes the connections.
 */
public final class LockClient implements AutoCloseable {

    /** Default key prefix. */
    public static final String DEFAULT_KEY_PREFIX = "distlock:";
    /** Default lease of watchdog-renewed holds. */
    public static final Duration DEFAULT_WATCHDOG_TIMEOUT = Duration.ofSeconds(30);
    /** Default wait for one Redis answer. */
    public static final Duration DEFAULT_COMMAND_TIMEOUT = Duration.ofSeconds(5);
    /** Default time the next waiter of a fair lock has to take it once free. */
    public static final Duration DEFAULT_FAIR_SLOT_TIMEOUT = Duration.ofSeconds(5);
    /** Shortest accepted watchdog timeout. */
    public static final Duration MIN_WATCHDOG_TIMEOUT = Duration.ofMillis(100);

    private final String clientId;
    private final String keyPrefix;
    private final Duration watchdogTimeout;
    private final Duration commandTimeout;
    private final String redisAddress;
    private final RedisConnector connector;
    private final ScheduledThreadPoolExecutor scheduler;
    private final ExecutorService callers;
    private final LockEvents events;
    private final LockObservations observations;
    private final LockEngine engine;

    private LockClient(Builder builder, RedisTarget target) {
        this.clientId = UUID.randomUUID().toString();
        this.keyPrefix = builder.keyPrefix;
        this.watchdogTimeout = builder.watchdogTimeout;
        this.commandTimeout = Duration.ofMillis(builder.commandTimeout.toMillis());  // what the engine uses
        this.redisAddress = target.describe();
        // What may fail without Redis comes first: nothing is left running if it does.
        this.observations = builder.observations();
        this.scheduler = new ScheduledThreadPoolExecutor(1, daemonThreads("distlock-"));
        this.scheduler.setRemoveOnCancelPolicy(true);
        this.callers = Executors.newCachedThreadPool(daemonThreads("distlock-callers-"));
        this.events = new LockEvents(Executors.newSingleThreadExecutor(daemonThreads("distlock-events-")),
                builder.reportedLockType, observations);
        builder.listeners.forEach(events::add);
        try {
            this.connector = builder.startWithoutRedis
                    ? RedisConnector.connectInBackground(target, builder.commandTimeout, scheduler)
                    : RedisConnector.connect(target, builder.commandTimeout);
        } catch (RuntimeException | Error e) {
            scheduler.shutdownNow();
            callers.shutdown();
            events.close();
            throw e;
        }
        this.engine = new LockEngine(clientId, keyPrefix, watchdogTimeout.toMillis(),
                builder.commandTimeout.toMillis(), builder.fairSlotTimeout.toMillis(), connector, scheduler, callers,
                events,
                builder.ackTimeout == null ? null
                        : new ReplicaAcks(connector, builder.ackReplicas, builder.ackTimeout.toMillis()));
    }

    /** @return daemon threads named after their job and this client */
    private ThreadFactory daemonThreads(String job) {
        return runnable -> {
            Thread thread = new Thread(runnable, job + clientId.substring(0, 8));
            thread.setDaemon(true);
            return thread;
        };
    }

    /**
     * @return a builder; set one of {@link Builder#redisUri(String)}, {@link Builder#redisClient(RedisClient)},
     *         {@link Builder#clusterNodes(List)} and {@link Builder#clusterClient(RedisClusterClient)}
     */
    public static Builder builder() {
        return new Builder();
    }

    /** @return this client's unique id (a UUID); holder ids of its threads start with it */
    public String clientId() {
        return clientId;
    }

    /** @return the prefix of every Redis key this client uses */
    public String keyPrefix() {
        return keyPrefix;
    }

    /** @return the lease of watchdog-renewed holds; they are renewed every third of it */
    public Duration watchdogTimeout() {
        return watchdogTimeout;
    }

    /**
     * @param name the lock's name, e.g. {@code "order:42"}; any non-blank text not starting with
     *             <code>'&#125;'</code> (braces elsewhere are fine: the keys' hash tag stays non-empty)
     * @return the reentrant lock of that name
     * @throws NullPointerException     if name is null
     * @throws IllegalArgumentException if name is blank or starts with <code>'&#125;'</code>
     * @throws IllegalStateException    if the client is closed
     */
    public RedisLock getLock(String name) {
        return engine.lock(LockId.of(checkName(name)));
    }

    /**
     * Like {@link #getLock(String)}, with the group its events and metrics are counted under given
     * explicitly (metrics tag locks with the group, never the full name, to keep cardinality low).
     *
     * @param name  the lock's name, e.g. {@code "OrderService.pay:42"}
     * @param group its group, e.g. {@code "OrderService.pay"}; any non-blank text
     * @return the reentrant lock of that name
     * @throws NullPointerException     if an argument is null
     * @throws IllegalArgumentException if an argument is blank
     * @throws IllegalStateException    if the client is closed
     */
    public RedisLock getLock(String name, String group) {
        return engine.lock(id(name, group));
    }

    /**
     * @return the holder id under which the calling thread holds locks of this client; pass it to
     *         the {@code *Async} methods to act for this thread's holds from another thread
     */
    public String currentHolderId() {
        return engine.currentThreadHolderId();
    }

    /** @return how long one Redis command may take before it fails */
    public Duration commandTimeout() {
        return commandTimeout;
    }

    /**
     * @param name the lock's name, e.g. {@code "ledger:1"}; any non-blank text
     * @return the fenced lock of that name: reentrant, and every acquisition gets a token that
     *         increases strictly across all clients (see {@link FencedLock})
     * @throws NullPointerException     if name is null
     * @throws IllegalArgumentException if name is blank
     * @throws IllegalStateException    if the client is closed
     */
    public FencedLock getFencedLock(String name) {
        return engine.fencedLock(LockId.of(checkName(name)));
    }

    /**
     * @param name  the lock's name
     * @param group the group its events and metrics are counted under (see {@link #getLock(String, String)})
     * @return the fenced lock of that name
     */
    public FencedLock getFencedLock(String name, String group) {
        return engine.fencedLock(id(name, group));
    }

    /**
     * @param name the lock's name, e.g. {@code "queue:7"}; any non-blank text
     * @return the fair lock of that name: reentrant, and handed out in arrival order across all
     *         clients; a waiter that dies or gives up holds up the ones behind it for at most
     *         {@link Builder#fairSlotTimeout(Duration)}
     * @throws NullPointerException     if name is null
     * @throws IllegalArgumentException if name is blank
     * @throws IllegalStateException    if the client is closed
     */
    public RedisLock getFairLock(String name) {
        return engine.fairLock(LockId.of(checkName(name)));
    }

    /**
     * @param name  the lock's name
     * @param group the group its events and metrics are counted under (see {@link #getLock(String, String)})
     * @return the fair lock of that name
     */
    public RedisLock getFairLock(String name, String group) {
        return engine.fairLock(id(name, group));
    }

    /**
     * @param name the lock's name, e.g. {@code "price-list"}; any non-blank text
     * @return the read-write lock of that name (see {@link RedisReadWriteLock})
     * @throws NullPointerException     if name is null
     * @throws IllegalArgumentException if name is blank
     * @throws IllegalStateException    if the client is closed
     */
    public RedisReadWriteLock getReadWriteLock(String name) {
        return engine.readWriteLock(LockId.of(checkName(name)));
    }

    /**
     * @param name  the lock's name
     * @param group the group its events and metrics are counted under (see {@link #getLock(String, String)})
     * @return the read-write lock of that name
     */
    public RedisReadWriteLock getReadWriteLock(String name, String group) {
        return engine.readWriteLock(id(name, group));
    }

    /**
     * @param name    the semaphore's name, e.g. {@code "partner-api"}; any non-blank text not
     *                starting with <code>'&#125;'</code>. Its keys are apart from the lock of the same name
     * @param permits how many permits may be out at a time, across every client, &gt; 0; every
     *                client must use the same count (see {@link RedisSemaphore#setPermits(int)})
     * @return the semaphore of that name (see {@link RedisSemaphore})
     * @throws NullPointerException     if name is null
     * @throws IllegalArgumentException if name is blank or starts with <code>'&#125;'</code>, or
     *                                  {@code permits <= 0}
     * @throws IllegalStateException    if the client is closed
     */
    public RedisSemaphore getSemaphore(String name, int permits) {
        return engine.semaphore(LockId.of(checkName(name)), permits);
    }

    /**
     * @param name    the semaphore's name
     * @param group   the group its events and metrics are counted under (see {@link #getLock(String, String)})
     * @param permits how many permits may be out at a time, &gt; 0
     * @return the semaphore of that name
     */
    public RedisSemaphore getSemaphore(String name, String group, int permits) {
        return engine.semaphore(id(name, group), permits);
    }

    /** @param listener receives lock events from now on */
    public void addListener(LockListener listener) {
        events.add(Objects.requireNonNull(listener, "listener must not be null"));
    }

    /** @param listener no longer receives lock events */
    public void removeListener(LockListener listener) {
        events.remove(listener);
    }

    /**
     * @return the locks this client holds or waits for, now: name, kind, holder, hold count,
     *         remaining lease, since when, and whether the watchdog renews it
     */
    public List<LockInfo> locks() {
        return engine.locks();
    }

    /**
     * @return where this client connects, with no password: its Redis URI (a Sentinel one names the
     *         Sentinels and the master), a cluster's seed nodes, or "the given RedisClient's URI"
     */
    public String redisAddress() {
        return redisAddress;
    }

    /** @return the number of holds whose lease the watchdog renews now */
    public int watchdogHoldCount() {
        return engine.watchdogHolds();
    }

    /**
     * @return the number of lock channels this client is subscribed to now: those its threads
     *         wait on, and for a second more those they waited on (a lock waited for again soon
     *         then needs no new subscription)
     */
    public int activeSubscriptions() {
        return engine.activeSubscriptions();
    }

    /**
     * Checks that Redis answers, for health checks.
     *
     * @return the round-trip time of one {@code PING}
     * @throws LockException         if Redis does not answer within the command timeout
     * @throws IllegalStateException if the client is closed
     */
    public Duration ping() {
        return engine.ping();
    }

    /** @return whether {@link #close()} was called */
    public boolean isClosed() {
        return engine.isClosed();
    }

    /**
     * @return whether this client reports its acquisitions and holds as Micrometer Observations
     *         ({@link Builder#observationRegistry}): then the registry's meter handler, if it has
     *         one, times them, and a meter binder of this client's events should not time them too
     */
    public boolean isObserved() {
        return observations != LockObservations.NONE;
    }

    /**
     * Stops lease renewal and closes the connections (and the Redis client, if this client created
     * it). Locks still held are not released: they expire after at most one watchdog timeout or
     * their explicit lease. Idempotent.
     */
    @Override
    public void close() {
        if (!engine.markClosed()) {
            return;
        }
        connector.close();
        engine.close();
        scheduler.shutdownNow();
        callers.shutdown();
        events.close();
    }

    private LockId id(String name, String group) {
        Objects.requireNonNull(group, "lock group must not be null");
        if (group.isBlank()) {
            throw new IllegalArgumentException("lock group must not be blank");
        }
        return new LockId(checkName(name), group);
    }

    private String checkName(String name) {
        Objects.requireNonNull(name, "lock name must not be null");
        if (name.isBlank()) {
            throw new IllegalArgumentException("lock name must not be blank");
        }
        if (name.charAt(0) == '}') {
            // Keys are <prefix>{<name>}...: "{}" is an empty hash tag, so Redis Cluster would hash each
            // of the lock's keys whole and put them in different slots.
            throw new IllegalArgumentException("lock name must not start with '}' (it would end the Redis hash "
                    + "tag {name} before it began and split the lock's keys across cluster slots): '" + name + "'");
        }
        engine.ensureOpen();
        return name;
    }

    @Override
    public String toString() {
        return "LockClient[" + clientId + ", prefix=" + keyPrefix + "]";
    }

    /**
     * Configures a {@link LockClient}. Exactly one target must be set: {@link #redisUri(String)},
     * {@link #redisClient(RedisClient)}, {@link #clusterNodes(List)} or
     * {@link #clusterClient(RedisClusterClient)}.
     */
    public static final class Builder {

        private @Nullable String redisUri;
        private @Nullable RedisURI parsedUri;
        private @Nullable RedisClient redisClient;
        private @Nullable RedisClusterClient clusterClient;
        private @Nullable List<RedisURI> clusterNodes;
        private String keyPrefix = DEFAULT_KEY_PREFIX;
        private Duration watchdogTimeout = DEFAULT_WATCHDOG_TIMEOUT;
        private Duration commandTimeout = DEFAULT_COMMAND_TIMEOUT;
        private Duration fairSlotTimeout = DEFAULT_FAIR_SLOT_TIMEOUT;
        private int ackReplicas;
        private @Nullable Duration ackTimeout;
        private @Nullable SslOptions sslOptions;
        private @Nullable ClientResources clientResources;
        private final List<LockListener> listeners = new ArrayList<>();
        private @Nullable ObservationRegistry observationRegistry;
        private @Nullable MeterRegistry meterRegistry;
        private @Nullable String reportedLockType;
        private boolean startWithoutRedis;

        private Builder() {
        }

        /**
         * @param startWithoutRedis {@code true}: when Redis cannot be reached, {@link #build()}
         *                          still returns a client, which connects in the background; until
         *                          it has, every lock call fails at once with a {@link LockException}
         *                          that says why. A Redis that answers but refuses the client (wrong
         *                          credentials, missing ACL permissions, a database it does not
         *                          have, an untrusted TLS certificate) still fails {@code build()}.
         *                          {@code false} (default): {@code build()} fails when Redis cannot
         *                          be reached too.
         * @return this builder
         */
        public Builder startWithoutRedis(boolean startWithoutRedis) {
            this.startWithoutRedis = startWithoutRedis;
            return this;
        }

        /**
         * @param uri e.g. {@code redis://localhost:6379}, {@code redis://user:secret@host:6379/2},
         *            {@code rediss://host:6380} (TLS)
         * @return this builder
         */
        public Builder redisUri(String uri) {
            this.redisUri = Objects.requireNonNull(uri, "redisUri must not be null");
            this.parsedUri = null;
            return this;
        }

        /**
         * @param uri a Lettuce URI built by the caller (e.g. with Sentinel nodes or credentials
         *            from configuration); its timeout is replaced by {@link #commandTimeout}
         * @return this builder
         */
        public Builder redisUri(RedisURI uri) {
            this.parsedUri = Objects.requireNonNull(uri, "redisUri must not be null");
            this.redisUri = uri.toString();
            return this;
        }

        /**
         * Uses a Lettuce client the caller created and owns (it is not shut down by
         * {@link LockClient#close()}). It must have a default URI ({@code RedisClient.create(uri)}).
         *
         * @param client the client
         * @return this builder
         */
        public Builder redisClient(RedisClient client) {
            this.redisClient = Objects.requireNonNull(client, "redisClient must not be null");
            return this;
        }

        /**
         * Uses a Redis Cluster through a Lettuce cluster client the caller created and owns (it is
         * not shut down by {@link LockClient#close()}). Every key of a lock shares one hash slot;
         * on Redis 7+ wake-ups use sharded pub/sub, on older versions plain pub/sub.
         *
         * @param client the cluster client, with its seed URIs
         * @return this builder
         */
        public Builder clusterClient(RedisClusterClient client) {
            this.clusterClient = Objects.requireNonNull(client, "clusterClient must not be null");
            return this;
        }

        /**
         * Connects to a Redis Cluster through these seed nodes, with a cluster client this builder
         * creates (command timeout, reconnect and adaptive topology refresh set) and
         * {@link LockClient#close()} shuts down.
         *
         * @param seeds some of the cluster's nodes (credentials and TLS as on each URI)
         * @return this builder
         */
        public Builder clusterNodes(List<RedisURI> seeds) {
            Objects.requireNonNull(seeds, "clusterNodes must not be null");
            if (seeds.isEmpty()) {
                throw new IllegalArgumentException("clusterNodes must name at least one node");
            }
            this.clusterNodes = List.copyOf(seeds);
            return this;
        }

        /**
         * TLS settings of the Redis client this builder creates (for {@link #redisUri(String)} and
         * {@link #clusterNodes(List)}), typically the CA to trust when Redis's certificate is not
         * signed by one the JVM trusts already. TLS itself is switched on by the URI
         * ({@code rediss://}, or {@link RedisURI#setSsl(boolean)}):
         * <pre>{@code
         * LockClient.builder()
         *     .redisUri("rediss://alice:secret@redis.example.com:6380")
         *     .sslOptions(SslOptions.builder().trustManager(new File("/etc/redis/ca.pem")).build())
         *     .build();
         * }</pre>
         * A client passed with {@link #redisClient(RedisClient)} or
         * {@link #clusterClient(RedisClusterClient)} carries its own {@code SslOptions} in its
         * {@code ClientOptions}.
         *
         * @param options Lettuce's TLS options: trust store or CA, key store for client
         *                certificates, protocols, cipher suites
         * @return this builder
         */
        public Builder sslOptions(SslOptions options) {
            this.sslOptions = Objects.requireNonNull(options, "sslOptions must not be null");
            return this;
        }

        /**
         * Lettuce resources (event loops, timers, command latency metrics, tracing) for the Redis
         * client this builder creates (for {@link #redisUri(String)} and
         * {@link #clusterNodes(List)}), typically the application's own, so it runs one set of
         * event loops and its Lettuce metrics and tracing cover distlock's connections too. They
         * stay the caller's: {@link LockClient#close()} does not shut them down. Without them the
         * client creates resources of its own and shuts them down on close.
         *
         * @param resources shared Lettuce resources
         * @return this builder
         */
        public Builder clientResources(ClientResources resources) {
            this.clientResources = Objects.requireNonNull(resources, "clientResources must not be null");
            return this;
        }

        /**
         * @param prefix prefix of every key, default {@code "distlock:"}; must not contain
         *               <code>'&#123;'</code> or <code>'&#125;'</code> (the lock name is the hash tag)
         * @return this builder
         */
        public Builder keyPrefix(String prefix) {
            Objects.requireNonNull(prefix, "keyPrefix must not be null");
            if (prefix.indexOf('{') >= 0 || prefix.indexOf('}') >= 0) {
                throw new InvalidLockSettingException(LockSetting.KEY_PREFIX, "'" + prefix + "' contains '{' or '}'",
                        "Use a prefix without braces, e.g. 'distlock:' (the lock name is the Redis hash tag).");
            }
            this.keyPrefix = prefix;
            return this;
        }

        /**
         * @param timeout lease of holds taken without a lease time, renewed every third of it
         *                until unlock; at least 100 ms, default 30 s
         * @return this builder
         */
        public Builder watchdogTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "watchdogTimeout must not be null");
            if (timeout.compareTo(MIN_WATCHDOG_TIMEOUT) < 0) {
                throw new InvalidLockSettingException(LockSetting.WATCHDOG_TIMEOUT, "'" + millis(timeout)
                        + "' is shorter than " + millis(MIN_WATCHDOG_TIMEOUT),
                        "Set at least " + millis(MIN_WATCHDOG_TIMEOUT) + "; the default is 30s.");
            }
            this.watchdogTimeout = timeout;
            return this;
        }

        /**
         * @param timeout how long to wait for one Redis answer before failing with
         *                {@link LockException}; positive, default 5 s. Applied to the Redis client
         *                this builder creates, and as the limit of blocking calls.
         * @return this builder
         */
        public Builder commandTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "commandTimeout must not be null");
            positive(LockSetting.COMMAND_TIMEOUT, timeout, "Set how long to wait for one Redis answer, e.g. 5s "
                    + "(the default).");
            this.commandTimeout = timeout;
            return this;
        }

        /**
         * @param timeout how long the next waiter of a fair lock has to take the lock once it is
         *                free (and the longest a dead waiter holds up the ones behind it); a live
         *                waiter needs far less. Positive, default 5 s.
         * @return this builder
         */
        public Builder fairSlotTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "fairSlotTimeout must not be null");
            positive(LockSetting.FAIR_SLOT_TIMEOUT, timeout, "Set how long the next waiter of a fair lock has to "
                    + "take it once it is free, e.g. 5s (the default).");
            this.fairSlotTimeout = timeout;
            return this;
        }

        /**
         * Makes every acquisition and release wait until {@code replicas} replicas acknowledge it
         * (Redis {@code WAIT}), so a failover to one of them cannot lose it. An acquisition fewer
         * replicas acknowledge within {@code timeout} is released again and fails with a
         * {@link LockException}; a release is logged instead. Off by default. Costs one more round
         * trip per acquisition and release, and while a {@code WAIT} runs the client's other
         * commands queue behind it: keep the timeout short. Asynchronous replication still applies
         * to replicas beyond the count, and to lease renewals.
         *
         * <p>An acknowledgement only counts when it came on the connection that made the change: if
         * a connection was replaced in between, the change counts as unconfirmed. On a cluster the
         * {@code WAIT} goes to the master the client's slot map names for the lock; while a slot
         * migrates ({@code ASK}) that can be another node than the one that ran the script.
         * Locks of the same client are never handed from thread to thread locally with this on:
         * every acquisition goes through Redis and its acknowledgement.
         *
         * @param replicas replicas that must acknowledge; 0 turns the option off (the timeout may then be null)
         * @param timeout  how long to wait for them; positive, and shorter than the command timeout
         *                 (checked when this builder creates the Redis client; a client passed in
         *                 keeps its own timeouts, so keep this shorter than those)
         * @return this builder
         */
        public Builder replicaAcks(int replicas, @Nullable Duration timeout) {
            if (replicas < 0) {
                throw new InvalidLockSettingException(LockSetting.REPLICA_ACKS_REPLICAS, "'" + replicas
                        + "' is negative", "Use 0 to turn replica acknowledgements off, or the number of replicas "
                        + "that must acknowledge.");
            }
            if (replicas == 0) {
                this.ackReplicas = 0;
                this.ackTimeout = null;
                return this;
            }
            Objects.requireNonNull(timeout, "replicaAcks timeout must not be null");
            positive(LockSetting.REPLICA_ACKS_TIMEOUT, timeout, "Use a short positive duration such as 500ms, "
                    + "below the command timeout.");
            this.ackReplicas = replicas;
            this.ackTimeout = timeout;
            return this;
        }

        /**
         * @param listener receives lock events
         * @return this builder
         */
        public Builder listener(LockListener listener) {
            listeners.add(Objects.requireNonNull(listener, "listener must not be null"));
            return this;
        }

        /**
         * Reports acquisitions and holds as Micrometer Observations in this registry:
         * {@code distlock.acquire}, from the start of an acquisition on the caller's thread (under
         * the caller's current observation) to its outcome, and {@code distlock.held}, from a first
         * hold to its last release or loss (see {@link io.distlock.core.observation}). Observations
         * often end on Redis I/O threads: the registry's handlers must be quick. Needs
         * {@code io.micrometer:micrometer-observation} on the classpath.
         *
         * @param registry the registry; {@code null} or {@link ObservationRegistry#NOOP} observes nothing
         * @return this builder
         */
        public Builder observationRegistry(@Nullable ObservationRegistry registry) {
            this.observationRegistry = registry;
            return this;
        }

        /**
         * Publishes this client's {@code distlock.*} meters in this registry, the same the Spring
         * Boot starter publishes (see {@link LockMetrics}): timers of acquisitions and holds, gauges
         * of holders and waiters, counters of renewals and lost leases. With an
         * {@link #observationRegistry} too, the two timers come from the observations, so that
         * registry needs a meter handler for them (e.g. Micrometer's
         * {@code DefaultMeterObservationHandler} on this meter registry). Needs
         * {@code io.micrometer:micrometer-core} on the classpath.
         *
         * <p>One client per registry: Micrometer registers a gauge once per name and tags, so the
         * gauges of a second client in the same registry would not show (its counters and timers
         * would add to the first's). In Spring Boot the starter binds the meters of its clients:
         * do not also set this in a {@code LockClientBuilderCustomizer}.
         *
         * @param registry the registry; {@code null} publishes no meters
         * @return this builder
         */
        public Builder meterRegistry(@Nullable MeterRegistry registry) {
            this.meterRegistry = registry;
            return this;
        }

        /**
         * Reports every lock of this client, in its events and observations, under one lock type
         * instead of each lock's own: for a client whose locks are parts of larger locks, such as
         * a RedLock master's ({@link RedLock#LOCK_TYPE}).
         *
         * @param type the type reported, e.g. {@code red_lock}
         * @return this builder
         */
        public Builder reportedLockType(String type) {
            Objects.requireNonNull(type, "reportedLockType must not be null");
            if (type.isBlank()) {
                throw new IllegalArgumentException("reportedLockType must not be blank");
            }
            this.reportedLockType = type;
            return this;
        }

        /** @throws InvalidLockSettingException unless {@code timeout} is positive */
        private static void positive(LockSetting setting, Duration timeout, String action) {
            if (timeout.isNegative() || timeout.isZero()) {
                throw new InvalidLockSettingException(setting, "'" + millis(timeout) + "' is not positive", action);
            }
        }

        /** @return a duration as a property would write it, e.g. {@code 500ms} */
        private static String millis(Duration duration) {
            return duration.toMillis() + "ms";
        }

        /** @return where acquisitions and holds are observed */
        private LockObservations observations() {
            // Without a registry, no Micrometer class is loaded: micrometer-observation is optional.
            return observationRegistry == null ? LockObservations.NONE
                    : MicrometerLockObservations.of(observationRegistry);
        }

        /**
         * Connects to Redis.
         *
         * @return the client
         * @throws IllegalStateException    unless exactly one of redisUri, redisClient, clusterClient and
         *                                  clusterNodes is set, or if sslOptions is set with a client the
         *                                  caller created
         * @throws IllegalArgumentException if the URI is malformed
         * @throws InvalidLockSettingException if the replicaAcks timeout is not shorter than the command
         *                                  timeout
         * @throws LockException            if Redis cannot be reached or refuses the credentials
         */
        public LockClient build() {
            RedisTarget target = new RedisTarget(redisUri, parsedUri, redisClient, clusterClient, clusterNodes,
                    sslOptions, clientResources);
            if (ackTimeout != null && ackTimeout.compareTo(commandTimeout) >= 0) {
                throw new InvalidLockSettingException(LockSetting.REPLICA_ACKS_TIMEOUT, "'" + millis(ackTimeout)
                        + "' is not shorter than the command timeout (" + millis(commandTimeout) + ")",
                        "Use a shorter one such as 500ms: the client would give up on WAIT before Redis answers.");
            }
            return measured(new LockClient(this, target));
        }

        /** @return the client, its meters bound to the meter registry if one was given */
        private LockClient measured(LockClient client) {
            // Without a registry, no Micrometer class is loaded: micrometer-core is optional.
            if (meterRegistry != null) {
                try {
                    new LockMetrics(client).bindTo(meterRegistry);
                } catch (RuntimeException | Error e) {
                    try {
                        client.close();
                    } catch (RuntimeException closing) {
                        e.addSuppressed(closing);
                    }
                    throw e;
                }
            }
            return client;
        }
    }
}

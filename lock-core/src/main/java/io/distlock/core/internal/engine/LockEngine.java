package io.distlock.core.internal.engine;

import io.distlock.core.FencedLock;
import io.distlock.core.LockInfo;
import io.distlock.core.RedisLock;
import io.distlock.core.RedisReadWriteLock;
import io.distlock.core.RedisSemaphore;
import io.distlock.core.internal.scripts.ScriptExecutor;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * What one {@link io.distlock.core.LockClient} shares among all its locks, wired together: the
 * Redis calls, the waits on lock channels, the registry of holds and its watchdog, the
 * acquisitions and releases, and the lifecycle. Lock objects are thin views over it, each given
 * the parts it uses.
 */
public final class LockEngine {

    /** Most holds renewed by one watchdog script call (public for the benchmarks, which check the bound). */
    public static final int RENEWAL_BATCH_SIZE = 500;

    private final String clientId;
    private final String keyPrefix;
    private final ClientLifecycle lifecycle;
    private final RedisCalls redis;
    private final LockWaits waits;
    private final HoldRegistry holds;
    private final ReleaseAnswers releaseAnswers;
    private final Releases releases;
    private final Acquisitions acquisitions;
    private final LockProtocol reentrant;
    private final LockProtocol fenced;
    private final LockProtocol fair;
    private final LockProtocol read;
    private final LockProtocol write;
    private final ScriptExecutor scripts;
    private final @Nullable ReplicaAcks replicaAcks;
    /** One per permit count, so the watchdog batches the holds of semaphores of one count together. */
    private final ConcurrentMap<Integer, SemaphoreKind> semaphores = new ConcurrentHashMap<>();

    /**
     * @param semaphore the semaphores of one permit count in Redis
     * @param protocol  what their holds go through: {@code semaphore}, waiting for replicas if asked
     */
    private record SemaphoreKind(SemaphoreProtocol semaphore, LockProtocol protocol) {
    }

    /**
     * @param clientId             unique id of the client
     * @param keyPrefix            prefix of every key
     * @param watchdogLeaseMillis  lease of watchdog holds
     * @param commandTimeoutMillis how long blocking calls wait for one Redis answer
     * @param fairSlotMillis       how long the next waiter of a fair lock has to take it when free
     * @param connector            the client's way to Redis: its command and pub/sub connections, once made
     * @param scheduler            the client's one scheduler thread
     * @param callers              completes the futures callers get (see {@link RedisCalls#forCaller})
     * @param events               listener dispatch
     * @param replicaAcks          replicas every acquisition and release waits for, or {@code null} for none
     */
    public LockEngine(String clientId, String keyPrefix, long watchdogLeaseMillis, long commandTimeoutMillis,
                      long fairSlotMillis, RedisConnector connector, ScheduledExecutorService scheduler,
                      Executor callers, LockEvents events, @Nullable ReplicaAcks replicaAcks) {
        this.clientId = clientId;
        this.keyPrefix = keyPrefix;
        this.lifecycle = new ClientLifecycle(clientId);
        this.redis = new RedisCalls(connector::commands, commandTimeoutMillis, new ReplyDeadlines(
                "distlock-deadlines-" + clientId.substring(0, Math.min(8, clientId.length()))), callers, lifecycle);
        this.waits = new LockWaits(connector, scheduler);
        HoldUndos undos = new HoldUndos(lifecycle, scheduler);
        this.holds = new HoldRegistry(scheduler, watchdogLeaseMillis, RENEWAL_BATCH_SIZE, connector.slotOf(), events,
                undos, lifecycle::isClosed,
                hold -> waits.wakeOne(hold.protocol().waitChannel(hold.keys(), clientId)), callers);
        this.releaseAnswers = new ReleaseAnswers(answerKeptMillis(commandTimeoutMillis));
        HoldIds ids = new HoldIds();
        this.releases = new Releases(clientId, lifecycle, holds, events, waits, releaseAnswers, redis, ids);
        this.acquisitions = new Acquisitions(clientId, lifecycle, ids, holds, undos, releases, redis, events, waits,
                watchdogLeaseMillis);
        scheduler.scheduleWithFixedDelay(this::forgetExpired, watchdogLeaseMillis, watchdogLeaseMillis,
                TimeUnit.MILLISECONDS);
        this.scripts = new ScriptExecutor(connector);
        this.replicaAcks = replicaAcks;
        ReentrantProtocol plain = new ReentrantProtocol(ids.prefix(), scripts, false, releaseAnswers);
        this.reentrant = replicated(plain, replicaAcks);
        this.fenced = replicated(new ReentrantProtocol(ids.prefix(), scripts, true, releaseAnswers), replicaAcks);
        this.fair = replicated(new FairProtocol(clientId, scripts, fairSlotMillis, plain), replicaAcks);
        this.read = replicated(new ReadWriteProtocol(scripts, false, releaseAnswers), replicaAcks);
        this.write = replicated(new ReadWriteProtocol(scripts, true, releaseAnswers), replicaAcks);
    }

    /**
     * How long Redis remembers a release (see {@code unlock.lua}). Lettuce sends a command again
     * after a reconnect only until it times out, one command timeout after it was first sent; a
     * server that stalls may run that second send later still. Twice the timeout plus 10 s covers
     * both, and leaves the engine's own resend of an unconfirmed release a window of its own
     * ({@link Releases}).
     *
     * @param commandTimeoutMillis the client's command timeout
     * @return how long a release's answer is kept, in milliseconds
     */
    private static long answerKeptMillis(long commandTimeoutMillis) {
        return 2 * commandTimeoutMillis + 10_000;
    }

    private static LockProtocol replicated(LockProtocol protocol, @Nullable ReplicaAcks replicaAcks) {
        return replicaAcks == null ? protocol : new ReplicatedProtocol(protocol, replicaAcks);
    }

    /** Forgets what was kept for late calls and can no longer be asked for: expired holds, unsent answers. */
    private void forgetExpired() {
        releaseAnswers.forgetUnsent();
        holds.forgetExpiredHolds();
    }

    /**
     * @param id lock name (already checked) and group
     * @return a reentrant lock
     */
    public RedisLock lock(LockId id) {
        return scripted(id, reentrant);
    }

    /**
     * @param id lock name (already checked) and group
     * @return a fair lock
     */
    public RedisLock fairLock(LockId id) {
        return scripted(id, fair);
    }

    /**
     * @param id lock name (already checked) and group
     * @return a fenced lock
     */
    public FencedLock fencedLock(LockId id) {
        return new ScriptedFencedLock(ref(id, fenced), clientId, acquisitions, releases, redis, holds);
    }

    /**
     * @param id lock name (already checked) and group
     * @return a read-write lock: its halves share the lock's keys
     */
    public RedisReadWriteLock readWriteLock(LockId id) {
        return new ScriptedReadWriteLock(id.name(), scripted(id, read), scripted(id, write));
    }

    /**
     * @param id      semaphore name (already checked) and group
     * @param permits the permit count, &gt; 0
     * @return a semaphore
     */
    public RedisSemaphore semaphore(LockId id, int permits) {
        ScriptedSemaphore.checkPermits(permits);
        SemaphoreKind kind = semaphores.computeIfAbsent(permits, count -> {
            SemaphoreProtocol semaphore = new SemaphoreProtocol(scripts, count, releaseAnswers);
            return new SemaphoreKind(semaphore, replicated(semaphore, replicaAcks));
        });
        LockRef ref = new LockRef(id, LockKeys.semaphore(keyPrefix, id.name()), kind.protocol());
        return new ScriptedSemaphore(new ScriptedLock(ref, clientId, acquisitions, releases, redis, holds),
                kind.semaphore(), redis);
    }

    private ScriptedLock scripted(LockId id, LockProtocol protocol) {
        return new ScriptedLock(ref(id, protocol), clientId, acquisitions, releases, redis, holds);
    }

    private LockRef ref(LockId id, LockProtocol protocol) {
        return new LockRef(id, LockKeys.of(keyPrefix, id.name()), protocol);
    }

    /** @return the holder id of the calling thread in this client */
    public String currentThreadHolderId() {
        return ThreadHolder.id(clientId);
    }

    /** @return number of lock channels subscribed now (see {@code LockClient.activeSubscriptions()}) */
    public int activeSubscriptions() {
        return waits.activeChannels();
    }

    /** @return number of holds the watchdog renews now */
    public int watchdogHolds() {
        return holds.watchdogHolds();
    }

    /** @return the locks this client holds (and has not found lost) or waits for, held ones first */
    public List<LockInfo> locks() {
        long nowNanos = System.nanoTime();
        Instant now = Instant.now();
        List<LockInfo> locks = new ArrayList<>();
        holds.addHeld(locks, now, nowNanos);
        waits.addWaiting(locks, now, nowNanos);
        return locks;
    }

    /**
     * One {@code PING} on the command connection.
     *
     * @return the round-trip time
     * @throws io.distlock.core.LockException if Redis does not answer within the command timeout
     * @throws IllegalStateException          if the client was closed
     */
    public Duration ping() {
        return redis.ping();
    }

    /**
     * @throws IllegalStateException if the client was closed
     */
    public void ensureOpen() {
        lifecycle.ensureOpen();
    }

    /**
     * First step of closing the client: from now on every lock call fails with
     * {@link IllegalStateException}.
     *
     * @return {@code true} for the first call, {@code false} if already closed
     */
    public boolean markClosed() {
        return lifecycle.markClosed();
    }

    /** @return whether {@link #markClosed()} was called */
    public boolean isClosed() {
        return lifecycle.isClosed();
    }

    /**
     * Last step of closing, once the connections are closed: stops renewing leases (held locks
     * expire after at most one lease) and ends all waits, which then fail on the closed connection.
     */
    public void close() {
        redis.close();
        holds.close();
        waits.close();
    }
}

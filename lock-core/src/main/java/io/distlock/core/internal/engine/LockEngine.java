package io.distlock.core.internal.engine;

import io.distlock.core.LockException;
import io.distlock.core.LockInfo;
import io.distlock.core.internal.pubsub.LockSubscriptions;
import io.distlock.core.internal.pubsub.WakeUpChannel;
import io.distlock.core.internal.scripts.ScriptExecutor;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The machinery one {@link io.distlock.core.LockClient} shares among all its locks: Redis
 * commands and scripts, the pub/sub subscriptions, the lease watchdog, the scheduler, the
 * listeners, and the registry of holds this client has ({@link HoldRegistry}). Lock objects are thin
 * views over it.
 */
public final class LockEngine {

    /** Most holds renewed by one watchdog script call (public for the benchmarks, which check the bound). */
    public static final int RENEWAL_BATCH_SIZE = 500;

    private final String clientId;
    private final String keyPrefix;
    private final long watchdogLeaseMillis;
    private final long commandTimeoutMillis;
    private final RedisClusterAsyncCommands<String, String> commands;
    private final LockSubscriptions<Acquisition> subscriptions;
    private final ScheduledExecutorService scheduler;
    private final ReplyDeadlines replyDeadlines;
    private final Executor callers;
    private final LockEvents events;
    private final LockProtocol reentrant;
    private final LockProtocol fenced;
    private final LockProtocol fair;
    private final LockProtocol read;
    private final LockProtocol write;
    private final ReleaseAnswers releaseAnswers;
    /** Acquisitions that wait for their lock (joined its channel), for {@link #locks()}. */
    private final Set<Acquisition> waiting = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Holds that acquisitions may have taken but nobody will use, being taken back. */
    private final HoldUndos undos = new HoldUndos(this);
    private final HoldRegistry holds;
    /** Ids: this client's random prefix, then a counter (see {@link #newId()}). */
    private final String idPrefix = Long.toString(ThreadLocalRandom.current().nextLong(1L << 40, 1L << 41),
            Character.MAX_RADIX) + ".";
    private final AtomicLong ids = new AtomicLong();

    /**
     * @param clientId             unique id of the client
     * @param keyPrefix            prefix of every key
     * @param watchdogLeaseMillis  lease of watchdog holds
     * @param commandTimeoutMillis how long blocking calls wait for one Redis answer
     * @param fairSlotMillis       how long the next waiter of a fair lock has to take it when free
     * @param connections          the client's command and pub/sub connections
     * @param scheduler            the client's one scheduler thread
     * @param callers              completes the futures callers get (see {@link #forCaller})
     * @param events               listener dispatch
     * @param replicaAcks          replicas every acquisition and release waits for, or {@code null} for none
     */
    public LockEngine(String clientId, String keyPrefix, long watchdogLeaseMillis, long commandTimeoutMillis,
                      long fairSlotMillis, RedisConnections connections, ScheduledExecutorService scheduler,
                      Executor callers, LockEvents events, @Nullable ReplicaAcks replicaAcks) {
        this.clientId = clientId;
        this.keyPrefix = keyPrefix;
        this.watchdogLeaseMillis = watchdogLeaseMillis;
        this.commandTimeoutMillis = commandTimeoutMillis;
        this.commands = connections.commands();
        this.subscriptions = new LockSubscriptions<>(connections.pubSub(), connections.shardedPubSub(),
                Acquisition::holdId, connections::refreshTopology, scheduler);
        connections.onTopologyChange(subscriptions::resubscribeAll);
        this.scheduler = scheduler;
        this.replyDeadlines = new ReplyDeadlines("distlock-deadlines-"
                + clientId.substring(0, Math.min(8, clientId.length())));
        this.callers = callers;
        this.events = events;
        this.holds = new HoldRegistry(scheduler, watchdogLeaseMillis, RENEWAL_BATCH_SIZE, connections.slotOf(), events,
                undos, closed::get, this::wakeLocalWaiter);
        ReleaseAnswers answers = new ReleaseAnswers(answerKeptMillis(commandTimeoutMillis));
        this.releaseAnswers = answers;
        scheduler.scheduleWithFixedDelay(this::forgetExpired, watchdogLeaseMillis, watchdogLeaseMillis,
                TimeUnit.MILLISECONDS);
        ScriptExecutor scripts = new ScriptExecutor(commands);
        String publish = connections.publishCommand();
        // The lock hash notes the holding client ('#client'): by a short tag, which every lock held
        // carries, rather than the 36-character client id.
        ReentrantProtocol plain = new ReentrantProtocol(idPrefix, scripts, publish, false, answers);
        this.reentrant = replicated(plain, replicaAcks);
        this.fenced = replicated(new ReentrantProtocol(idPrefix, scripts, publish, true, answers), replicaAcks);
        this.fair = replicated(new FairProtocol(clientId, scripts, publish, fairSlotMillis, plain), replicaAcks);
        this.read = replicated(new ReadWriteProtocol(scripts, publish, false, answers), replicaAcks);
        this.write = replicated(new ReadWriteProtocol(scripts, publish, true, answers), replicaAcks);
    }

    /**
     * How long Redis remembers a release (see {@code unlock.lua}). Lettuce sends a command again
     * after a reconnect only until it times out, one command timeout after it was first sent; a
     * server that stalls may run that second send later still. Twice the timeout plus 10 s covers
     * both, and leaves the engine's own resend of an unconfirmed release a window of its own
     * ({@link ScriptedLock}).
     *
     * @param commandTimeoutMillis the client's command timeout
     * @return how long a release's answer is kept, in milliseconds
     */
    static long answerKeptMillis(long commandTimeoutMillis) {
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

    /** @return the holds this client has, and the watchdog that renews them */
    HoldRegistry holds() {
        return holds;
    }

    /** Wakes one local waiter of a hold's lock, if it has any. */
    private void wakeLocalWaiter(Hold hold) {
        WakeUpChannel<Acquisition> sleepers = subscriptions.find(hold.protocol().waitChannel(hold.keys(), clientId));
        if (sleepers != null) {
            sleepers.wakeOne();
        }
    }

    /** @return where releases keep their answers, and which of them this client has read */
    ReleaseAnswers releaseAnswers() {
        return releaseAnswers;
    }

    /** @return the client's unique id */
    public String clientId() {
        return clientId;
    }

    /**
     * @param name lock name
     * @return the lock's Redis keys
     */
    public LockKeys keys(String name) {
        return LockKeys.of(keyPrefix, name);
    }

    /** @return the protocol of reentrant locks */
    public LockProtocol reentrant() {
        return reentrant;
    }

    /** @return the protocol of fair locks */
    public LockProtocol fair() {
        return fair;
    }

    /** @return the protocol of read locks (of read-write locks) */
    public LockProtocol read() {
        return read;
    }

    /** @return the protocol of write locks (of read-write locks) */
    public LockProtocol write() {
        return write;
    }

    /** @return the protocol of fenced locks */
    public LockProtocol fenced() {
        return fenced;
    }

    /** @return async commands of the shared connection (routed by key slot on a cluster) */
    public RedisClusterAsyncCommands<String, String> commands() {
        return commands;
    }

    /** @return the client's lock channel subscriptions */
    LockSubscriptions<Acquisition> subscriptions() {
        return subscriptions;
    }

    /**
     * @param channel a lock channel
     * @return whether somebody of this client waits on it, so that Redis has (or is about to have)
     *         this client's subscription to it
     */
    boolean listensOn(String channel) {
        return subscriptions.find(channel) != null;
    }

    /** @return number of lock channels subscribed now (see {@code LockClient.activeSubscriptions()}) */
    public int activeSubscriptions() {
        return subscriptions.activeChannels();
    }

    /** @return takes back holds that acquisitions may have taken but nobody will use */
    HoldUndos undos() {
        return undos;
    }

    /** @return where Redis calls are given a time limit for their answer */
    ReplyDeadlines replyDeadlines() {
        return replyDeadlines;
    }

    /** @return the client's scheduler */
    public ScheduledExecutorService scheduler() {
        return scheduler;
    }

    /**
     * @param result a future the engine completes, maybe on Lettuce's event loop
     * @param <T>    result type
     * @return a future completed like {@code result}: on the calling thread if {@code result} is
     *         done already, else on the client's caller threads. A continuation of the caller's
     *         must never run on the event loop, where one that waits for Redis (an
     *         {@code unlock()} in a {@code thenRun}) would stall every command of the client (run
     *         here once the client is closed). Completing a future nobody can have attached to yet
     *         runs no continuation, and those the caller attaches then run on its own thread; a
     *         hop to another thread would only cost a context switch (a MultiLock without a lease
     *         settles each component so, one per component and acquisition)
     */
    public <T> CompletableFuture<T> forCaller(CompletableFuture<T> result) {
        CompletableFuture<T> visible = new CompletableFuture<>();
        boolean known = result.isDone();
        result.whenComplete((value, error) -> {
            Runnable complete = () -> {
                if (error != null) {
                    visible.completeExceptionally(RedisFailures.unwrap(error));
                } else {
                    visible.complete(value);
                }
            };
            if (known) {
                complete.run();  // on the calling thread: whenComplete of a done future runs at once
                return;
            }
            try {
                callers.execute(complete);
            } catch (RejectedExecutionException closed) {
                complete.run();
            }
        });
        return visible;
    }

    /** @return the client's listener dispatch */
    public LockEvents events() {
        return events;
    }

    /** @return lease of watchdog holds, in milliseconds */
    public long watchdogLeaseMillis() {
        return watchdogLeaseMillis;
    }

    /**
     * Whether a watchdog hold taken by an acquisition that started at the given time must still be
     * there, so that a composite lock need not ask Redis: its lease began when Redis granted it,
     * after that start, so it cannot have run out (even unrenewed: a frozen JVM, a lost
     * connection) before that start plus a lease. Half a lease is the margin.
     *
     * @param acquiringSinceNanos {@link System#nanoTime()} when the acquisition started
     * @return whether less than half a watchdog lease has passed since
     */
    boolean leaseCannotHaveEndedSince(long acquiringSinceNanos) {
        return System.nanoTime() - acquiringSinceNanos < TimeUnit.MILLISECONDS.toNanos(watchdogLeaseMillis) / 2;
    }

    /** @return how long blocking calls wait for one Redis answer, in milliseconds */
    public long commandTimeoutMillis() {
        return commandTimeoutMillis;
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
        for (Acquisition acquisition : waiting) {
            locks.add(new LockInfo(acquisition.lockName(), acquisition.protocol().type(), LockInfo.State.WAITING,
                    acquisition.holderId(), 0, null, now.minusNanos(nowNanos - acquisition.startNanos()), false));
        }
        return locks;
    }

    /** @param acquisition starts or stops waiting for its lock */
    void waiting(Acquisition acquisition, boolean waits) {
        if (waits) {
            waiting.add(acquisition);
        } else {
            waiting.remove(acquisition);
        }
    }

    /**
     * @return a new id, unique among all ids of all clients: a hold's (see {@code lock.lua}), or a
     *         force-unlock call's (see {@code force_unlock.lua})
     */
    String newId() {
        return idPrefix + Long.toString(ids.incrementAndGet(), Character.MAX_RADIX);
    }

    /**
     * One {@code PING} on the command connection.
     *
     * @return the round-trip time
     * @throws LockException         if Redis does not answer within the command timeout
     * @throws IllegalStateException if the client was closed
     */
    public Duration ping() {
        ensureOpen();
        long start = System.nanoTime();
        CompletableFuture<String> pong;
        try {
            pong = commands.ping().toCompletableFuture();
        } catch (RuntimeException e) {
            throw RedisFailures.translate("ping Redis", e);
        }
        Blocking.awaitUninterruptibly(pong, commandTimeoutMillis + 1000, "ping Redis");
        return Duration.ofNanos(System.nanoTime() - start);
    }

    /**
     * @throws IllegalStateException if the client was closed
     */
    public void ensureOpen() {
        if (closed.get()) {
            throw new IllegalStateException("LockClient " + clientId + " is closed");
        }
    }

    /**
     * First step of closing the client: from now on every lock call fails with
     * {@link IllegalStateException}.
     *
     * @return {@code true} for the first call, {@code false} if already closed
     */
    public boolean markClosed() {
        return closed.compareAndSet(false, true);
    }

    /** @return whether {@link #markClosed()} was called */
    public boolean isClosed() {
        return closed.get();
    }

    /**
     * Last step of closing, once the connections are closed: stops renewing leases (held locks
     * expire after at most one lease) and ends all waits, which then fail on the closed connection.
     */
    public void close() {
        replyDeadlines.close();
        holds.close();
        subscriptions.close();
    }
}

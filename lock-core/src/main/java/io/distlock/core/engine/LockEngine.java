package io.distlock.core.engine;

import io.distlock.core.LockException;
import io.distlock.core.LockLostException;
import io.distlock.core.pubsub.LockSubscriptions;
import io.distlock.core.pubsub.WakeUpChannel;
import io.distlock.core.scripts.ScriptExecutor;
import io.distlock.core.watchdog.LeaseWatchdog;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The machinery one {@link io.distlock.core.LockClient} shares among all its locks: Redis
 * commands and scripts, the pub/sub subscriptions, the lease watchdog, the scheduler, the
 * listeners, and the registry of holds this client has. Lock objects are thin views over it.
 */
public final class LockEngine implements LeaseWatchdog.RenewalOutcomes {

    /** Most holds renewed by one watchdog script call (public for the benchmarks, which check the bound). */
    public static final int RENEWAL_BATCH_SIZE = 500;

    private final String clientId;
    private final String keyPrefix;
    private final long watchdogLeaseMillis;
    private final long commandTimeoutMillis;
    private final RedisClusterAsyncCommands<String, String> commands;
    private final RedisConnections connections;
    private final LockSubscriptions<Acquisition> subscriptions;
    private final ScheduledExecutorService scheduler;
    private final LockEvents events;
    private final LeaseWatchdog watchdog;
    private final LockProtocol reentrant;
    private final LockProtocol fenced;
    private final LockProtocol fair;
    private final LockProtocol read;
    private final LockProtocol write;
    private final ConcurrentHashMap<HoldId, Hold> holds = new ConcurrentHashMap<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Per lock key, this client's hold of a lock that has one holder at a time (hand-off locks). */
    private final ConcurrentHashMap<String, Hold> exclusiveHolds = new ConcurrentHashMap<>();

    /** A hold is one holder's hold of one lock of one kind (a read-write lock's two halves share keys). */
    private record HoldId(String lockKey, String type, String holderId) {
    }

    /**
     * @param clientId             unique id of the client
     * @param keyPrefix            prefix of every key
     * @param watchdogLeaseMillis  lease of watchdog holds
     * @param commandTimeoutMillis how long blocking calls wait for one Redis answer
     * @param fairSlotMillis       how long the next waiter of a fair lock has to take it when free
     * @param connections          the client's command and pub/sub connections
     * @param scheduler            the client's one scheduler thread
     * @param events               listener dispatch
     * @param replicaAcks          replicas every acquisition and release waits for, or {@code null} for none
     */
    public LockEngine(String clientId, String keyPrefix, long watchdogLeaseMillis, long commandTimeoutMillis,
                      long fairSlotMillis, RedisConnections connections, ScheduledExecutorService scheduler,
                      LockEvents events, ReplicaAcks replicaAcks) {
        this.clientId = clientId;
        this.keyPrefix = keyPrefix;
        this.watchdogLeaseMillis = watchdogLeaseMillis;
        this.commandTimeoutMillis = commandTimeoutMillis;
        this.commands = connections.commands();
        this.connections = connections;
        this.subscriptions = new LockSubscriptions<>(connections.pubSub(), connections.shardedPubSub(),
                Acquisition::holderId, connections::refreshTopology);
        connections.onTopologyChange(subscriptions::resubscribeAll);
        this.scheduler = scheduler;
        this.events = events;
        this.watchdog = new LeaseWatchdog(scheduler, watchdogLeaseMillis, RENEWAL_BATCH_SIZE, connections.slotOf(),
                this);
        scheduler.scheduleWithFixedDelay(this::forgetExpiredHolds, watchdogLeaseMillis, watchdogLeaseMillis,
                TimeUnit.MILLISECONDS);
        ScriptExecutor scripts = new ScriptExecutor(commands);
        ReentrantProtocol plain = new ReentrantProtocol(scripts, connections.publishCommand(), false);
        this.reentrant = replicated(plain, replicaAcks);
        this.fenced = replicated(new ReentrantProtocol(scripts, connections.publishCommand(), true), replicaAcks);
        this.fair = replicated(new FairProtocol(clientId, scripts, connections.publishCommand(), fairSlotMillis, plain),
                replicaAcks);
        this.read = replicated(new ReadWriteProtocol(scripts, connections.publishCommand(), false), replicaAcks);
        this.write = replicated(new ReadWriteProtocol(scripts, connections.publishCommand(), true), replicaAcks);
    }

    private static LockProtocol replicated(LockProtocol protocol, ReplicaAcks replicaAcks) {
        return replicaAcks == null ? protocol : new ReplicatedProtocol(protocol, replicaAcks);
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

    /** @return number of lock channels subscribed now (threads of this client waiting) */
    public int activeSubscriptions() {
        return subscriptions.activeChannels();
    }

    /** @return the client's scheduler */
    public ScheduledExecutorService scheduler() {
        return scheduler;
    }

    /** @return the client's listener dispatch */
    public LockEvents events() {
        return events;
    }

    /** @return lease of watchdog holds, in milliseconds */
    public long watchdogLeaseMillis() {
        return watchdogLeaseMillis;
    }

    /** @return how long blocking calls wait for one Redis answer, in milliseconds */
    public long commandTimeoutMillis() {
        return commandTimeoutMillis;
    }

    /**
     * @return how many times a connection of the client has dropped so far (see
     *         {@link RedisConnections#drops()})
     */
    public long connectionDrops() {
        return connections.drops();
    }

    /** @return number of holds the watchdog renews now */
    public int watchdogHolds() {
        return watchdog.size();
    }

    /**
     * @param keys     the lock
     * @param protocol the kind of lock (the read and write halves of one lock hold separately)
     * @param holderId the holder
     * @return this client's hold of that lock by that holder, or {@code null}
     */
    public Hold hold(LockKeys keys, LockProtocol protocol, String holderId) {
        return holds.get(new HoldId(keys.lockKey(), protocol.type(), holderId));
    }

    /**
     * Records an acquisition Redis confirmed. A first hold (count 1) where this client still had a
     * hold means the earlier hold's lease was lost without anyone noticing: it is reported lost.
     *
     * @param id          the lock's name and group
     * @param keys        the lock's keys
     * @param holderId    the holder
     * @param protocol    the kind of lock
     * @param watchdogued whether the watchdog keeps the lease alive
     * @param leaseMillis the lease set by this acquisition
     * @param attempt     what Redis answered: the hold count and, for fenced locks, the token
     * @param handOffs    hand-offs in a row that led to this hold (0 if acquired from Redis)
     * @return the hold
     */
    Hold acquired(LockId id, LockKeys keys, String holderId, LockProtocol protocol, boolean watchdogued,
                  long leaseMillis, Attempt attempt, int handOffs) {
        int count = attempt.holdCount();
        HoldId holdId = new HoldId(keys.lockKey(), protocol.type(), holderId);
        Hold previous = holds.get(holdId);
        if (previous != null && count > 1) {
            previous.count(count);
            if (watchdogued && !previous.watchdog()) {
                previous.watchdogFromNowOn();
                watchdog.watch(previous);
            }
            return previous;
        }
        Hold hold = new Hold(id, keys, holderId, protocol, watchdogued, leaseMillis, count, attempt.token(), handOffs);
        holds.put(holdId, hold);
        if (protocol.canHandOff()) {
            exclusiveHolds.put(keys.lockKey(), hold);
        }
        if (previous != null) {
            watchdog.unwatch(previous);
            if (!previous.releaseUnconfirmed()) {
                // Not released by us, yet gone: its lease was lost.
                reportLost(previous);
            } else if (!previous.lost()) {
                // An unconfirmed release that did happen is simply done.
                events.released(previous, 0);
            }
        }
        if (watchdogued) {
            watchdog.watch(hold);
        }
        return hold;
    }

    /**
     * Called before the release of a hold's last count is sent: from then on the watchdog must
     * not renew it, nor mistake its release for a lost lease.
     *
     * @param hold the hold being released
     */
    void releasing(Hold hold) {
        watchdog.unwatch(hold);
    }

    /**
     * Records a release Redis confirmed.
     *
     * @param hold      the hold
     * @param remaining hold count left
     */
    void released(Hold hold, int remaining) {
        hold.count(remaining);
        hold.releaseUnconfirmed(false);
        if (remaining == 0) {
            forget(hold);
        }
        events.released(hold, remaining);
    }

    /**
     * Records that Redis no longer has a hold the caller released: the lease was lost. Each
     * further {@code unlock()} of the holder's remaining counts throws too.
     *
     * @param hold the hold
     * @return the exception for the caller
     */
    LockLostException releasedLost(Hold hold) {
        watchdog.unwatch(hold);
        reportLost(hold);
        int remaining = hold.count() - 1;
        hold.count(remaining);
        if (remaining <= 0) {
            forget(hold);
        }
        return new LockLostException(hold.lockName(), "The lease of lock '" + hold.lockName()
                + "' was lost before unlock (it expired or was deleted): another holder may have had it meanwhile");
    }

    /**
     * @param keys     a lock that has one holder at a time
     * @param holderId a holder of this client
     * @return another holder's hold of that lock in this client (possibly being released: its
     *         release then hands the lock on or publishes it), not known to be lost, or {@code null}
     */
    Hold heldByAnotherLocalHolder(LockKeys keys, String holderId) {
        Hold hold = exclusiveHolds.get(keys.lockKey());
        return hold == null || hold.holderId().equals(holderId) || hold.lost() ? null : hold;
    }

    /**
     * Forgets holds that ended in Redis without a confirmed release, and reports them released:
     * explicit-lease holds never unlocked whose lease ended more than one watchdog timeout ago
     * ({@code lock(10, SECONDS)} used as a self-expiring lock; until then a late {@code unlock()}
     * still reports the loss, after that it finds nothing held), and last holds whose release was
     * sent but never confirmed nor retried (no longer renewed, so gone after one lease).
     */
    private void forgetExpiredHolds() {
        for (Hold hold : holds.values()) {
            if (hold.millisSinceLeaseEnded() > watchdogLeaseMillis
                    || hold.millisSinceUnconfirmedLastRelease() > watchdogLeaseMillis) {
                forget(hold);
                if (!hold.lost()) {
                    events.released(hold, 0);
                }
            }
        }
    }

    private void forget(Hold hold) {
        exclusiveHolds.remove(hold.keys().lockKey(), hold);
        holds.remove(new HoldId(hold.keys().lockKey(), hold.protocol().type(), hold.holderId()), hold);
    }

    @Override
    public void renewed(Hold hold) {
        events.renewed(hold);
    }

    @Override
    public void lost(Hold hold) {
        events.renewalLost(hold);
        reportLost(hold);
    }

    /**
     * Marks a hold lost and tells the listeners, once. The lock may be free now without anyone
     * having published a release, so a local waiter is woken to look.
     */
    private void reportLost(Hold hold) {
        if (hold.lost()) {
            return;
        }
        hold.markLost();
        events.lost(hold);
        WakeUpChannel<Acquisition> sleepers = subscriptions.find(hold.protocol().waitChannel(hold.keys(), clientId));
        if (sleepers != null) {
            sleepers.wakeOne();
        }
    }

    @Override
    public void failed(Hold hold, Throwable cause) {
        events.renewalFailed(hold, cause);
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
        watchdog.close();
        subscriptions.close();
    }
}

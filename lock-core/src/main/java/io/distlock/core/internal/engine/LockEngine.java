package io.distlock.core.internal.engine;

import io.distlock.core.LockException;
import io.distlock.core.LockInfo;
import io.distlock.core.LockLostException;
import io.distlock.core.internal.pubsub.LockSubscriptions;
import io.distlock.core.internal.pubsub.WakeUpChannel;
import io.distlock.core.internal.scripts.ScriptExecutor;
import io.distlock.core.internal.watchdog.LeaseWatchdog;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
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
import java.util.function.Predicate;

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
    private final LockSubscriptions<Acquisition> subscriptions;
    private final ScheduledExecutorService scheduler;
    private final ReplyDeadlines replyDeadlines;
    private final Executor callers;
    private final LockEvents events;
    private final LeaseWatchdog watchdog;
    private final LockProtocol reentrant;
    private final LockProtocol fenced;
    private final LockProtocol fair;
    private final LockProtocol read;
    private final LockProtocol write;
    private final ReleaseAnswers releaseAnswers;
    private final ConcurrentHashMap<HoldKey, Hold> holds = new ConcurrentHashMap<>();
    /** Acquisitions that wait for their lock (joined its channel), for {@link #locks()}. */
    private final Set<Acquisition> waiting = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Per lock key, this client's hold of a lock that has one holder at a time (hand-off locks). */
    private final ConcurrentHashMap<String, Hold> exclusiveHolds = new ConcurrentHashMap<>();
    /**
     * Per holder of a lock, oldest first, the holds a new acquisition ended because their explicit
     * lease ran out ({@link #endIfLeaseRanOut}) while the holder had not released all of it: each
     * {@code unlock()} it still owes them is answered, once the holds since are released, as an
     * {@code unlock()} after the lease ran out is ({@link #unlockEnded}). Forgotten one watchdog
     * timeout after their lease ended ({@link #forgetExpiredHolds}).
     */
    private final ConcurrentHashMap<HoldKey, ArrayDeque<Hold>> endedUnreleased = new ConcurrentHashMap<>();
    /** Holds that acquisitions may have taken but nobody will use, being taken back. */
    private final HoldUndos undos = new HoldUndos(this);
    /** Ids: this client's random prefix, then a counter (see {@link #newId()}). */
    private final String idPrefix = Long.toString(ThreadLocalRandom.current().nextLong(1L << 40, 1L << 41),
            Character.MAX_RADIX) + ".";
    private final AtomicLong ids = new AtomicLong();

    /**
     * Where the registry keeps a hold: one holder's hold of one lock of one kind (a read-write
     * lock's two halves share keys). Not a hold id, which names one acquisition.
     */
    private record HoldKey(String lockKey, String type, String holderId) {
    }

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
        this.watchdog = new LeaseWatchdog(scheduler, watchdogLeaseMillis, RENEWAL_BATCH_SIZE, connections.slotOf(),
                this);
        ReleaseAnswers answers = new ReleaseAnswers(answerKeptMillis(commandTimeoutMillis));
        this.releaseAnswers = answers;
        scheduler.scheduleWithFixedDelay(this::forgetExpiredHolds, watchdogLeaseMillis, watchdogLeaseMillis,
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
        return watchdog.size();
    }

    /**
     * @param keys     the lock
     * @param protocol the kind of lock (the read and write halves of one lock hold separately)
     * @param holderId the holder
     * @return this client's hold of that lock by that holder, or {@code null}
     */
    public @Nullable Hold hold(LockKeys keys, LockProtocol protocol, String holderId) {
        return holds.get(new HoldKey(keys.lockKey(), protocol.type(), holderId));
    }

    /** @return the locks this client holds (and has not found lost) or waits for, held ones first */
    public List<LockInfo> locks() {
        long nowNanos = System.nanoTime();
        Instant now = Instant.now();
        List<LockInfo> locks = new ArrayList<>();
        for (Hold hold : holds.values()) {
            int count = hold.count();
            if (count > 0 && !hold.lost()) {
                locks.add(new LockInfo(hold.lockName(), hold.protocol().type(), LockInfo.State.HELD, hold.holderId(),
                        count, Duration.ofMillis(Math.max(0, hold.remainingLeaseMillis())),
                        now.minusNanos(nowNanos - hold.acquiredNanos()), hold.watchdog()));
            }
        }
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
     * The hold a new acquisition by this holder re-enters, if any: whether Redis still has it is
     * for the attempt to find out. A thread's hold whose explicit lease ran out is not re-entered: it
     * ended ({@link #endIfLeaseRanOut}), and the acquisition is a fresh attempt.
     *
     * @param keys     the lock
     * @param protocol the kind of lock
     * @param holderId the holder
     * @param thread   whether the holder is the calling thread, whose acquisitions never overlap
     * @return the hold Redis confirmed and the holder has not released, or {@code null}
     * @throws LockLostException if this client already found that hold's lease lost: the holder
     *                           re-enters a lock it no longer has
     */
    @Nullable Hold holdToReenter(LockKeys keys, LockProtocol protocol, String holderId, boolean thread) {
        Hold hold = hold(keys, protocol, holderId);
        if (hold == null || (thread && endIfLeaseRanOut(hold))) {
            return null;
        }
        if (hold.lost()) {
            throw lostOnReentry(hold);
        }
        return hold.holdsConfirmed() ? hold : null;
    }

    /**
     * Ends a thread's hold whose explicit lease ran out by this client's clock, which counts the
     * lease from Redis's answer, so not before Redis ended it. The holder chose a lease to have the
     * lock end by itself: a self-expiring lock taken again at the next run ({@code tryLock(0, 50, SECONDS)}
     * every minute, never unlocked) takes a new hold, not one that is gone. Its hold ids are taken
     * back ({@link HoldUndos}), which changes nothing if Redis ended them, as it should have; if it
     * has not (a paused server does not expire keys), the new hold would otherwise join them and its
     * release leave the lock taken.
     *
     * <p>The holder may also still be inside the hold: {@code lock(5, SECONDS)}, work longer than
     * that, then a nested {@code lock()}. Nothing tells the two apart until the holder unlocks, so a
     * hold with holds the holder never released is remembered apart ({@link #endedUnreleased}), and
     * the {@code unlock()} calls it is still owed are answered after the new hold's own releases (the
     * inner {@code unlock()} pairs with the new acquisition) as an {@code unlock()} after the lease
     * ran out is without a new acquisition: {@link LockLostException}, the loss reported once. If
     * none comes (the self-expiring lock) it is forgotten, and reported released, one watchdog
     * timeout after its lease ended, as {@link #forgetExpiredHolds} does with a hold nobody took
     * again. Either way each hold is reported ended once, the way it would have been without the new
     * acquisition. A hold with nothing left to release is reported released here.
     *
     * @param hold the holder's hold
     * @return whether its explicit lease ran out: the hold ended (here, or already)
     */
    boolean endIfLeaseRanOut(Hold hold) {
        if (hold.millisSinceLeaseEnded() < 0) {
            return false;
        }
        if (forgetIf(hold, h -> h.millisSinceLeaseEnded() >= 0)) {
            List<String> holdIds = hold.holdIds();
            holdIds.forEach(holdId -> undos.start(hold.protocol(), hold.keys(), hold.holderId(), holdId));
            if (!holdIds.isEmpty()) {
                endedUnreleased.compute(holdKeyOf(hold), (key, ended) -> {
                    ArrayDeque<Hold> next = ended == null ? new ArrayDeque<>(1) : ended;
                    next.addLast(hold);
                    return next;
                });
            } else if (!hold.lost()) {
                events.released(hold, 0);
            }
        }
        return true;  // ended here, or by an overlapping acquisition of the same holder
    }

    /**
     * An {@code unlock()} by a holder with no hold left in the registry: if a new acquisition ended
     * a hold of it whose lease ran out before the holder released all of it
     * ({@link #endIfLeaseRanOut}), the latest such hold's latest unreleased hold is taken out and
     * answered as an {@code unlock()} after the lease ran out is: the loss ({@link #releasedLost},
     * reported once). A hold whose release was sent without an answer is answered as released: the
     * engine takes a release sent again that finds nothing held as released (see
     * {@code ScriptedLock.lostBefore}), and the hold was taken back when it ended.
     *
     * @param keys     the lock
     * @param protocol the kind of lock
     * @param holderId the holder
     * @return the answer to the {@code unlock()}, or {@code null} if the holder is owed none
     */
    @Nullable CompletableFuture<Void> unlockEnded(LockKeys keys, LockProtocol protocol, String holderId) {
        Hold[] ended = new Hold[1];
        Hold.Release[] taken = new Hold.Release[1];
        endedUnreleased.computeIfPresent(new HoldKey(keys.lockKey(), protocol.type(), holderId), (key, holds) -> {
            while (taken[0] == null && !holds.isEmpty()) {
                ended[0] = holds.peekLast();
                taken[0] = ended[0].takeForRelease(null);
                if (taken[0] == null || taken[0].last()) {
                    holds.pollLast();  // nothing left in it to answer for
                }
            }
            return holds.isEmpty() ? null : holds;
        });
        if (taken[0] == null) {
            return null;
        }
        if (taken[0].retry()) {
            released(ended[0]);
            return CompletableFuture.completedFuture(null);
        }
        return CompletableFuture.failedFuture(releasedLost(ended[0]));
    }

    /**
     * A re-entry found that Redis no longer has the holder's hold: its lease was lost.
     *
     * @param hold the hold re-entered
     * @return the exception for the caller
     */
    LockLostException lostOnReentry(Hold hold) {
        return foundLost(hold, ", so it cannot be re-entered: another holder may have had it meanwhile. Each "
                + "unlock() of the holds taken before throws this too.");
    }

    /**
     * A composite lock found that Redis no longer has the holder's hold when it came to give it its
     * lease: its lease was lost while the composite acquired its other locks.
     *
     * @param hold the hold
     * @return the exception for the caller
     */
    LockLostException lostBeforeLease(Hold hold) {
        return foundLost(hold, ", before the composite lock it belongs to got all its locks: another holder may have "
                + "had it meanwhile, so the composite lock is not acquired.");
    }

    /** Reports a hold Redis no longer has as lost (once), and says so to the caller. */
    private LockLostException foundLost(Hold hold, String consequence) {
        watchdog.unwatch(hold);
        reportLost(hold);
        return new LockLostException(hold.lockName(), "The lease of lock '" + hold.lockName() + "' was lost while '"
                + hold.holderId() + "' held it (it expired or was deleted)" + consequence);
    }

    /**
     * A composite lock, which acquired the holder's latest hold with the watchdog, gives it an
     * explicit lease from now. If the holder's only hold is one taken since the composite started
     * acquiring, it is the composite's, the lease is exactly that and the watchdog stops renewing
     * it. Otherwise the holder has other holds, taken before or alongside (another acquisition of
     * the same holder id), and they keep their lease: a watchdog hold stays one, an explicit lease
     * only grows.
     *
     * @param hold                the holder's hold of the lock
     * @param leaseMillis         the lease
     * @param acquiringSinceNanos {@link System#nanoTime()} when the composite started acquiring
     * @return whether the lease is to be set exactly in Redis ({@code false}: only lengthened)
     */
    boolean leaseFromNow(Hold hold, long leaseMillis, long acquiringSinceNanos) {
        if (hold.count() == 1 && hold.acquiredNanos() - acquiringSinceNanos >= 0) {
            watchdog.unwatch(hold);
            hold.leaseFromNow(leaseMillis);
            return true;
        }
        hold.leaseAtLeast(leaseMillis);  // a watchdog hold stays one
        return false;
    }

    /**
     * Records an acquisition Redis confirmed: a new hold of the holder, or one more of a hold it
     * has. A holder whose only holds left are releases Redis never confirmed starts a new hold if
     * Redis counted this one as its first (those releases happened); otherwise they are still in
     * Redis and this hold joins them, renewed again if the watchdog keeps it.
     *
     * @param id          the lock's name and group
     * @param keys        the lock's keys
     * @param acquisition who acquired, with which hold id
     * @param protocol    the kind of lock
     * @param renewedByWatchdog whether the watchdog keeps the lease alive
     * @param leaseMillis the lease set by this acquisition
     * @param attempt     what Redis answered: the hold count and, for fenced locks, the token
     * @param handOffs    hand-offs in a row that led to this hold (0 if acquired from Redis)
     * @param observation the acquisition's observation, which starts the observation of a new hold
     * @return the hold
     */
    Hold acquired(LockId id, LockKeys keys, HoldRef acquisition, LockProtocol protocol, boolean renewedByWatchdog,
                  long leaseMillis, Attempt attempt, int handOffs, LockObservations.AcquisitionObservation observation) {
        HoldKey holdKey = new HoldKey(keys.lockKey(), protocol.type(), acquisition.holderId());
        Hold[] replaced = new Hold[1];
        boolean[] began = new boolean[1];
        Hold hold = holds.compute(holdKey, (key, current) -> {
            if (current != null && !current.lost() && (current.holdsConfirmed() || attempt.holdCount() > 1)) {
                // Joined under the registry's lock, so that forgetIf never drops the hold now.
                current.add(acquisition.holdId());
                if (renewedByWatchdog) {
                    current.watchdogFromNowOn();
                } else {
                    current.leaseAtLeast(leaseMillis);
                }
                return current;
            }
            replaced[0] = current;
            began[0] = true;
            return new Hold(id, keys, acquisition.holderId(), protocol, renewedByWatchdog, leaseMillis,
                    acquisition.holdId(), attempt.token(), handOffs);
        });
        Hold previous = replaced[0];
        if (previous != null) {
            watchdog.unwatch(previous);
            if (!previous.lost()) {
                // Only releases Redis never confirmed were left, and they did happen.
                events.released(previous, 0);
            }
        }
        if (began[0]) {
            hold.observedBy(observation.holdStarted());
            if (closed.get()) {
                hold.observationEnded(false);  // close() may have looked at the holds before this one
            }
        }
        track(hold);  // also re-arms a hold whose last release was never confirmed
        return hold;
    }

    /**
     * While the holder has a hold Redis confirmed that nobody is releasing (checked atomically with
     * releases taking holds out), the watchdog renews it if it keeps the lease, and for a lock with
     * one holder at a time it is this client's holder of it.
     */
    private void track(Hold hold) {
        hold.whileHeld(() -> {
            if (hold.protocol().canHandOff()) {
                exclusiveHolds.put(hold.keys().lockKey(), hold);
            }
            if (hold.watchdog()) {
                watchdog.watch(hold);
            }
        });
    }

    /**
     * Called before the release of a hold's last count is sent: from then on the watchdog must
     * not renew it, nor mistake its release for a lost lease. Unless the lock goes straight to a
     * local waiter, the hold stops keeping this client's new waiters from asking Redis: their
     * attempts go out behind the release on the same connection and find the lock free, where
     * sleeping until a wake-up could sleep out the whole lease (the release's message may have
     * been counted already, or the release's answer may never come).
     *
     * @param hold       the hold being released
     * @param handingOff whether the release hands the lock to a claimed local waiter
     */
    void releasing(Hold hold, boolean handingOff) {
        watchdog.unwatch(hold);
        if (!handingOff) {
            exclusiveHolds.remove(hold.keys().lockKey(), hold);
        }
        // An acquisition of the same holder may have joined the hold since its release was taken
        // out as the last one, and tracked it before the lines above. It adds its hold before it
        // tracks, and this looks after untracking, so one of the two tracks it.
        track(hold);
    }

    /**
     * Records a release Redis confirmed.
     *
     * @param hold the hold
     */
    void released(Hold hold) {
        hold.releaseEnded();
        forgetIf(hold, h -> h.count() == 0);
        events.released(hold, hold.count());  // counted after: an acquisition may have joined
    }

    /**
     * Records that Redis no longer has a hold the caller released (its release is taken out
     * already): the lease was lost. Each further {@code unlock()} of the holder's remaining holds
     * throws too.
     *
     * @param hold the hold
     * @return the exception for the caller
     */
    LockLostException releasedLost(Hold hold) {
        watchdog.unwatch(hold);
        reportLost(hold);
        hold.releaseEnded();
        forgetIf(hold, h -> h.count() == 0);
        return new LockLostException(hold.lockName(), "The lease of lock '" + hold.lockName()
                + "' was lost before unlock (it expired or was deleted): another holder may have had it meanwhile");
    }

    /**
     * @param keys     a lock that has one holder at a time
     * @param holderId a holder of this client
     * @return another holder's hold of that lock in this client (possibly being released: its
     *         release then hands the lock on or publishes it), not known to be lost, or {@code null}
     */
    @Nullable Hold heldByAnotherLocalHolder(LockKeys keys, String holderId) {
        Hold hold = exclusiveHolds.get(keys.lockKey());
        return hold == null || hold.holderId().equals(holderId) || hold.lost() ? null : hold;
    }

    /**
     * Forgets holds found lost one watchdog timeout ago and never unlocked since, and holds that
     * ended in Redis without a confirmed release, which are reported released:
     * explicit-lease holds never unlocked whose lease ended more than one watchdog timeout ago
     * ({@code lock(10, SECONDS)} used as a self-expiring lock; until then a late {@code unlock()}
     * still reports the loss, after that it finds nothing held), and last holds whose release was
     * sent but never confirmed nor retried (no longer renewed, so gone after one lease). Holds
     * a new acquisition ended after their lease ran out, whose holder still owed them an
     * {@code unlock()} ({@link #endedUnreleased}), are forgotten after the same time, and reported
     * released unless an {@code unlock()} reported them lost.
     */
    private void forgetExpiredHolds() {
        releaseAnswers.forgetUnsent();
        for (Hold hold : holds.values()) {
            if (forgetIf(hold, h -> h.millisSinceLost() > watchdogLeaseMillis)) {
                continue;  // reported when found lost; a later unlock() finds nothing held
            }
            forgetEnded(hold, h -> h.millisSinceLeaseEnded() > watchdogLeaseMillis
                    || h.millisSinceUnconfirmedLastRelease() > watchdogLeaseMillis);
        }
        for (HoldKey holder : endedUnreleased.keySet()) {
            List<Hold> forgotten = new ArrayList<>(1);
            endedUnreleased.computeIfPresent(holder, (key, ended) -> {
                ended.removeIf(hold -> {
                    boolean expired = hold.millisSinceLeaseEnded() > watchdogLeaseMillis
                            || hold.millisSinceLost() > watchdogLeaseMillis;
                    if (expired) {
                        forgotten.add(hold);
                    }
                    return expired;
                });
                return ended.isEmpty() ? null : ended;
            });
            for (Hold hold : forgotten) {
                if (!hold.lost()) {
                    events.released(hold, 0);  // a self-expiring lock's run, never unlocked
                }
            }
        }
    }

    /**
     * Forgets a hold that ended in Redis without a release Redis confirmed, if the condition holds,
     * and reports it released (unless it was reported lost already).
     *
     * @return whether the hold was forgotten
     */
    private boolean forgetEnded(Hold hold, Predicate<Hold> ended) {
        boolean forgotten = forgetIf(hold, ended);
        if (forgotten && !hold.lost()) {
            events.released(hold, 0);
        }
        return forgotten;
    }

    /**
     * Forgets a hold if the condition holds, checked under the registry's lock for that hold: the
     * lock under which an acquisition joins a hold ({@link #acquired}), so a hold that an
     * acquisition joined is never forgotten.
     *
     * @return whether the hold was forgotten
     */
    private boolean forgetIf(Hold hold, Predicate<Hold> condition) {
        if (!condition.test(hold)) {
            return false;  // the usual answer, found without the registry's lock (checked again under it)
        }
        boolean[] forgotten = new boolean[1];
        holds.computeIfPresent(holdKeyOf(hold),
                (key, current) -> {
                    forgotten[0] = current == hold && condition.test(hold);
                    return forgotten[0] ? null : current;
                });
        if (forgotten[0]) {
            exclusiveHolds.remove(hold.keys().lockKey(), hold);
            watchdog.unwatch(hold);
        }
        return forgotten[0];
    }

    private static HoldKey holdKeyOf(Hold hold) {
        return new HoldKey(hold.keys().lockKey(), hold.protocol().type(), hold.holderId());
    }

    @Override
    public void renewed(List<Hold> renewed) {
        events.renewed(renewed);
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
        replyDeadlines.close();
        watchdog.close();
        subscriptions.close();
        // No longer kept by this client: their observations end here, their leases in Redis.
        holds.values().forEach(hold -> hold.observationEnded(false));
        for (HoldKey holder : endedUnreleased.keySet()) {
            endedUnreleased.computeIfPresent(holder, (key, ended) -> {
                ended.forEach(hold -> hold.observationEnded(false));
                return ended;
            });
        }
    }
}

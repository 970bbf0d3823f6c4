package io.distlock.core.internal.engine;

import io.distlock.core.LockEvent;
import io.distlock.core.LockLostException;
import io.distlock.core.internal.pubsub.WakeUpChannel;
import io.distlock.core.internal.pubsub.WakeUpChannel.Wake;
import org.jspecify.annotations.Nullable;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One acquisition, from first attempt to outcome, as a chain of asynchronous steps so that the
 * blocking {@code Lock} methods and the {@code *Async} methods share it:
 * <ol>
 *   <li>try once (one round trip); acquired or out of wait time ⇒ done;</li>
 *   <li>otherwise join the lock's channel; if this client was not yet subscribed to it when it
 *       tried, try again once subscribed, so a release between the try and the subscription is
 *       not missed;</li>
 *   <li>sleep until woken by a release message or until the holder's lease would end, whichever
 *       is first, then try again. A thread of this client releasing the lock may instead hand it
 *       over while we sleep ({@link #handedOff}), which costs no extra round trip.</li>
 * </ol>
 * The outcome is the {@link Hold} (acquired), {@code null} (wait time elapsed or abandoned) or an
 * exception (Redis failed). A caller that stops waiting (interrupt) calls {@link #abandon()}: the
 * chain then leaves the channel at once, and if an attempt in flight still acquires the lock, that
 * hold is released again, so nothing is left behind. Every attempt of one acquisition carries the
 * acquisition's own hold id, so undoing it removes exactly its hold, never another hold of the same
 * holder taken by an overlapping acquisition.
 */
final class Acquisition {

    private static final int RUNNING = 0;
    private static final int DONE = 1;
    private static final int ABANDONED = 2;

    private static final int NOT_WAITING = 0;
    private static final int WAITING = 1;
    private static final int CLOSED = 2;

    private final HoldRegistry holds;
    private final HoldUndos undos;
    private final LockEvents events;
    private final LockWaits waits;
    private final long watchdogLeaseMillis;
    private final LockRef lock;
    private final LockId id;
    private final LockKeys keys;
    private final LockProtocol protocol;
    private final String holderId;
    /**
     * Whether the holder is the calling thread. Its acquisitions never overlap, so a hold of it
     * whose explicit lease ran out is over (a self-expiring lock taken again at the next run), and
     * this acquisition is a fresh attempt ({@link HoldRegistry#endIfLeaseRanOut}). An explicit
     * holder's acquisitions may overlap: one that found the lease ran out must not end a hold
     * another of its acquisitions still counts, so for it a lease that ran out is lost.
     */
    private final boolean thread;
    /** Whether the caller may wait at all; one that may not reports a busy lock as {@code BUSY}. */
    private final boolean mayWait;
    private final long leaseMillis;
    private final boolean renewedByWatchdog;
    /** This acquisition's hold id: every attempt of it, its undo and a hand-off to it use it. */
    private final String holdId;
    private final long startNanos = System.nanoTime();
    private final long deadlineNanos;
    private final CompletableFuture<Hold> outcome = new CompletableFuture<>();
    /** Started on the caller's thread; ended by whichever of abandon, onAcquired and finish decides. */
    private final LockObservations.AcquisitionObservation observation;
    private final AtomicInteger state = new AtomicInteger(RUNNING);

    // Touched only by the chain's steps, which run one after another (a claimed sleep hands the
    // chain to the releasing holder, who continues it).
    private @Nullable WakeUpChannel<Acquisition> channel;
    private final String channelName;
    private boolean wokenByRelease;
    /**
     * Whether the waiting event was reported ({@link #WAITING}). abandon() closes it, so a waiting
     * event is never reported after the failure that should end it (metrics count waiters).
     */
    private final AtomicInteger waitReport = new AtomicInteger(NOT_WAITING);
    /** Ends the current sleep early, if any. */
    private volatile @Nullable Runnable endSleep;

    /**
     * What every acquisition of one client works with.
     *
     * @param holds               the client's holds: an acquisition joins or starts one
     * @param undos               takes back what an acquisition may have taken but nobody will use
     * @param events              reports the acquisition
     * @param waits               where an acquisition waits for its lock
     * @param watchdogLeaseMillis lease of watchdog holds
     */
    record Shared(HoldRegistry holds, HoldUndos undos, LockEvents events, LockWaits waits,
                  long watchdogLeaseMillis) {
    }

    private Acquisition(Shared shared, LockRef lock, String holderId, String holdId, String channelName,
                        boolean thread, Wait wait, Lease lease) {
        this.holds = shared.holds();
        this.undos = shared.undos();
        this.events = shared.events();
        this.waits = shared.waits();
        this.watchdogLeaseMillis = shared.watchdogLeaseMillis();
        this.lock = lock;
        this.id = lock.id();
        this.keys = lock.keys();
        this.protocol = lock.protocol();
        this.holderId = holderId;
        this.thread = thread;
        this.renewedByWatchdog = lease.isWatchdog();
        this.leaseMillis = renewedByWatchdog ? watchdogLeaseMillis : lease.millis();
        this.mayWait = !wait.isNone();
        this.deadlineNanos = wait.deadlineNanos(startNanos);
        this.holdId = holdId;
        this.channelName = channelName;
        this.observation = events.acquisitionStarted(id, protocol);
    }

    /**
     * What a look at the lock (an attempt, or finding that another holder of this client has it)
     * can rely on to hear of a release after it: the channel this client was subscribed to when
     * it looked, and that channel's wake-ups then. A release after the look was published on it
     * and counted, so a sleep that starts from those wake-ups cannot miss it.
     *
     * @param channel the channel Redis had confirmed before the look, or {@code null} if none
     * @param wakeUps its {@link WakeUpChannel#wakeUps()} before the look
     */
    private record Look(@Nullable WakeUpChannel<Acquisition> channel, long wakeUps) {

        static final Look UNHEARD = new Look(null, 0);

        boolean heardOn(WakeUpChannel<Acquisition> joined) {
            return channel != null && channel == joined;
        }
    }

    /** @return what this client hears of the lock from now on, read just before looking at it */
    private Look look() {
        WakeUpChannel<Acquisition> on = channel != null ? channel : waits.find(channelName);
        return on != null && isConfirmed(on.subscribed()) ? new Look(on, on.wakeUps()) : Look.UNHEARD;
    }

    /**
     * Starts an acquisition.
     *
     * @param shared      what every acquisition of the client works with
     * @param lock        the lock
     * @param holderId    who acquires
     * @param holdId      a new hold id: every attempt of this acquisition, its undo and a hand-off to it use it
     * @param channelName the channel on which it waits for the lock
     * @param thread      whether the holder is the calling thread (see {@link #thread})
     * @param wait        how long to wait; none tries once
     * @param lease       the lease asked for
     * @return the running acquisition
     */
    static Acquisition start(Shared shared, LockRef lock, String holderId, String holdId, String channelName,
                             boolean thread, Wait wait, Lease lease) {
        Acquisition acquisition = new Acquisition(shared, lock, holderId, holdId, channelName, thread, wait, lease);
        try {
            acquisition.begin();
        } catch (RuntimeException | Error e) {
            try {
                acquisition.finish(LockEvent.Failure.ERROR, e);  // ends what was started: its observation
            } catch (RuntimeException | Error alsoFailed) {
                e.addSuppressed(alsoFailed);
            }
            throw e;
        }
        return acquisition;
    }

    /** @return the hold when acquired, {@code null} when not, failed when Redis failed */
    CompletableFuture<Hold> outcome() {
        return outcome;
    }

    /** @return the lock acquired */
    LockRef lock() {
        return lock;
    }

    /** @return the lock's name */
    String lockName() {
        return id.name();
    }

    /** @return when the acquisition started ({@link System#nanoTime()}) */
    long startNanos() {
        return startNanos;
    }

    /** @return who acquires */
    String holderId() {
        return holderId;
    }

    /** @return this acquisition's hold id */
    String holdId() {
        return holdId;
    }

    /** @return the kind of lock acquired */
    LockProtocol protocol() {
        return protocol;
    }

    /** @return the lease this acquisition asks for, in milliseconds */
    long leaseMillis() {
        return leaseMillis;
    }

    /**
     * The caller stopped waiting. Leaves the wait at once; a hold acquired by an attempt (or a
     * hand-off) still in flight is released when its answer comes.
     *
     * @return {@code true} if abandoned; {@code false} if the outcome was already decided (then
     *         the caller owns what {@link #outcome()} holds)
     */
    boolean abandon() {
        if (!state.compareAndSet(RUNNING, ABANDONED)) {
            return false;
        }
        boolean waited = waitReport.getAndSet(CLOSED) == WAITING;
        leaveQueue();
        observation.failed(LockEvent.Failure.INTERRUPTED, null);
        events.acquireFailed(id, protocol, holderId, startNanos, waited, LockEvent.Failure.INTERRUPTED, null);
        outcome.complete(null);
        Runnable sleeping = endSleep;
        if (sleeping != null) {
            sleeping.run();
        }
        return true;
    }

    /**
     * A releasing holder of this client claimed this sleeping acquisition and Redis confirmed the
     * hand-off: we hold the lock now.
     *
     * @param handOffs       how many hand-offs in a row the lock has seen, this one included
     * @param grantSentNanos {@link System#nanoTime()} when the hand-off was sent
     */
    void handedOff(int handOffs, long grantSentNanos) {
        onAcquired(Attempt.acquired(1), handOffs, grantSentNanos);
    }

    /**
     * A claim of this sleeping acquisition did not end in a hand-off.
     *
     * @param error why, if Redis failed (then whether the lock was handed over is unknown, and
     *              this acquisition fails after giving back what it may have received); {@code null}
     *              if Redis said no, and the acquisition goes on trying
     */
    void handOffFailed(@Nullable Throwable error) {
        if (error == null) {
            attempt();
            return;
        }
        undo();
        finish(LockEvent.Failure.ERROR, error);
    }

    /**
     * Another holder of this client has the lock, and can hand it to this acquisition (a lock of
     * the same kind): asking Redis would only be told so. Queue up behind the local sleepers
     * instead, to be handed the lock or woken by its release, the sleep bounded by what that
     * holder's lease can last (if nobody of this client was subscribed yet, {@link #startWaiting}
     * looks once more after subscribing). A lock of another kind under the same name asks Redis:
     * nobody hands it over, and a fair lock must take its place in Redis's queue at once.
     */
    private void begin() {
        Look look = mayWait ? look() : Look.UNHEARD;
        Hold localHolder = mayWait && protocol.canHandOff() ? holds.heldByAnotherLocalHolder(keys, holderId) : null;
        if (localHolder != null) {
            startWaiting(localHolder.remainingLeaseMillis(), look);
        } else {
            attempt();
        }
    }

    private void attempt() {
        if (state.get() != RUNNING) {
            leaveChannel(true);
            leaveQueue();  // an attempt in flight at the abandon may have queued us again
            return;
        }
        Hold reentered;
        try {
            reentered = holds.holdToReenter(keys, protocol, holderId, thread);
        } catch (LockLostException lost) {
            finish(LockEvent.Failure.ERROR, lost);
            return;
        }
        Look look = look();
        long sentNanos = System.nanoTime();
        protocol.tryAcquire(keys, holderId, leaseMillis, holdId, reentered != null)
                .whenComplete((attempt, error) -> onAttempt(attempt, error, reentered, look, sentNanos));
    }

    /**
     * @param reentered the hold this attempt re-entered, if it was a re-entry
     * @param look      what this client heard of the lock when the attempt was sent
     * @param sentNanos {@link System#nanoTime()} when the attempt was sent
     */
    private void onAttempt(Attempt attempt, @Nullable Throwable error, @Nullable Hold reentered, Look look,
                           long sentNanos) {
        try {
            if (error != null) {
                // The attempt may still have run (e.g. it timed out): undo exactly what it did;
                // unless the client had no connection, and sent nothing.
                if (!NotConnectedException.sentNothing(error)) {
                    undo();
                }
                finish(LockEvent.Failure.ERROR, error);
            } else if (attempt.acquired()) {
                onAcquired(attempt, 0, sentNanos);
            } else if (attempt.lost() && reentered != null) {
                if (reentered.holdsConfirmed() && !(thread && holds.endIfLeaseRanOut(reentered))) {
                    finish(LockEvent.Failure.ERROR, holds.lostOnReentry(reentered));
                } else {
                    // The holder released its holds meanwhile, or (a thread) their explicit lease
                    // ran out: this is a first hold now.
                    attempt();
                }
            } else if (remainingMillis() <= 0) {
                finish(mayWait ? LockEvent.Failure.TIMEOUT : LockEvent.Failure.BUSY, null);
            } else {
                startWaiting(attempt.ttlMillis(), look);
            }
        } catch (RuntimeException | Error e) {
            // e.g. the client was closed under us: fail, never stall the chain.
            finish(LockEvent.Failure.ERROR, e);
        }
    }

    /**
     * Joins the lock's channel (once). If this client was already subscribed to it when we last
     * looked at the lock, a release since was published there and counted, so we can sleep at
     * once. Otherwise we look again once Redis confirmed the subscription: a release between our
     * last look and the subscription published to nobody.
     *
     * @param look what this client heard of the lock when we last looked
     */
    private void startWaiting(long holderTtlMillis, Look look) {
        if (channel == null) {
            if (waitReport.compareAndSet(NOT_WAITING, WAITING)) {
                events.waiting(id, protocol, holderId);
            }
            channel = waits.join(this, channelName);
        }
        if (look.heardOn(channel)) {
            sleepUntilWoken(channel, holderTtlMillis, look.wakeUps());
            return;
        }
        channel.subscribed().whenComplete((ok, error) -> {
            if (error != null) {
                finish(LockEvent.Failure.ERROR, error);
            } else {
                attempt();
            }
        });
    }

    private boolean waited() {
        return waitReport.get() == WAITING;
    }

    private static boolean isConfirmed(CompletableFuture<Void> subscription) {
        return subscription.isDone() && !subscription.isCompletedExceptionally();
    }

    /**
     * @param sleptOn     the channel joined
     * @param seenWakeUps the channel's wake-ups before our last look: any since, and we look again at once
     */
    private void sleepUntilWoken(WakeUpChannel<Acquisition> sleptOn, long holderTtlMillis, long seenWakeUps) {
        // 0: the lease ends within the millisecond; -1: no lease at all (foreign key), so bound the
        // sleep by our own lease as a safety net instead of trusting a message to come.
        long bound = holderTtlMillis >= 0 ? holderTtlMillis : watchdogLeaseMillis;
        CompletableFuture<Wake> wake = waits.sleep(sleptOn, this, Math.min(bound, remainingMillis()), seenWakeUps);
        endSleep = () -> sleptOn.endSleep(wake);
        if (state.get() != RUNNING) {
            sleptOn.endSleep(wake);
        }
        wake.whenComplete((how, error) -> {
            if (how == Wake.CLAIMED) {
                return; // the claiming holder continues this chain: handedOff or handOffFailed
            }
            wokenByRelease = how == Wake.RELEASED;
            attempt();
        });
    }

    private void onAcquired(Attempt attempt, int handOffs, long grantSentNanos) {
        leaveChannel(false);
        if (!state.compareAndSet(RUNNING, DONE)) {
            // Abandoned while this attempt was in flight: give back exactly what it took.
            undo();
            return;
        }
        Hold hold = holds.acquired(id, keys, new HoldRef(holderId, holdId), protocol, renewedByWatchdog, leaseMillis,
                grantSentNanos, attempt, handOffs, observation);
        observation.acquired();
        events.acquired(hold, startNanos, waited());
        events.delivered().thenRun(() -> outcome.complete(hold));
    }

    /** Takes back the hold this acquisition may have taken, until Redis answers ({@link HoldUndos}). */
    private void undo() {
        undos.start(protocol, keys, holderId, holdId);
    }

    private void finish(LockEvent.Failure failure, @Nullable Throwable error) {
        leaveChannel(true);
        leaveQueue();  // also after an abandon: an attempt in flight then may have queued us again
        if (!state.compareAndSet(RUNNING, DONE)) {
            return;
        }
        Throwable cause = error == null ? null : RedisFailures.unwrap(error);  // what Redis said, not a wrapper
        observation.failed(failure, cause);
        events.acquireFailed(id, protocol, holderId, startNanos, waited(), failure, cause);
        RuntimeException failed = error == null ? null : RedisFailures.translate("acquire lock '" + id.name() + "'", error);
        events.delivered().thenRun(() -> {
            if (failed != null) {
                outcome.completeExceptionally(failed);
            } else {
                outcome.complete(null);
            }
        });
    }

    /**
     * @param passOnWakeUp leaving without the lock: a release message this acquisition was woken
     *                     by goes to the next local sleeper instead of being lost
     */
    private void leaveChannel(boolean passOnWakeUp) {
        if (channel == null) {
            return;
        }
        if (passOnWakeUp && wokenByRelease) {
            channel.wakeOne();
        }
        waits.leave(this, channel);
        channel = null;
    }

    /** Gives up a place in the lock's queue, if it has one; best effort (a lost place expires). */
    private void leaveQueue() {
        try {
            protocol.leave(keys, holdId);
        } catch (RuntimeException e) {
            // e.g. the client is closed: the place ends with its slot timeout
        }
    }

    private long remainingMillis() {
        if (deadlineNanos == Long.MAX_VALUE) {
            return Long.MAX_VALUE;
        }
        return (deadlineNanos - System.nanoTime()) / 1_000_000L;
    }
}

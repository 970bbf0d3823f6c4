package io.distlock.core.internal.engine;

import io.distlock.core.LockInfo;
import io.distlock.core.LockLostException;
import io.distlock.core.internal.watchdog.LeaseWatchdog;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;

/**
 * The holds one client has, by holder and lock, and the watchdog that renews the leases of those
 * it keeps alive. Acquisitions join holds here, releases and expiries take them out, and every
 * hold is reported ended to the listeners once: released, or lost.
 *
 * <p>What it keeps true, under any interleaving of acquisitions, releases, renewals and sweeps:
 * <ul>
 * <li><b>Joining and forgetting exclude each other.</b> An acquisition joins a hold
 *     ({@link #acquired}) and a hold is forgotten ({@link #forgetIf}) only inside the map's
 *     compute for that hold's key, and forgetting checks its condition again there: a hold an
 *     acquisition joined is never forgotten, and an acquisition never joins a forgotten hold (it
 *     starts a new one).</li>
 * <li><b>Tracked only while held.</b> The watchdog renews a hold, and a hand-off lock names it as
 *     this client's holder, only while it has a hold Redis confirmed that nobody is releasing
 *     ({@link Hold#whileHeld}); a release stops both before it is sent ({@link #releasing}).</li>
 * <li><b>Reported once.</b> A hold is reported lost at most once ({@link #reportLost}), and
 *     reported released only if it was not reported lost: when its last release is confirmed, when
 *     a new hold of its holder replaces one whose releases were never confirmed, or when it is
 *     forgotten after it ended in Redis without a confirmed release.</li>
 * <li><b>Forgotten late enough.</b> A hold found lost, or ended without a confirmed release, stays
 *     one watchdog timeout ({@link #forgetExpiredHolds}), so that a late {@code unlock()} still
 *     reports the loss instead of finding nothing held.</li>
 * </ul>
 */
final class HoldRegistry implements LeaseWatchdog.RenewalOutcomes {

    private final long watchdogLeaseMillis;
    private final LockEvents events;
    private final HoldUndos undos;
    private final BooleanSupplier clientClosed;
    private final Consumer<Hold> wakeLocalWaiter;
    private final LeaseWatchdog watchdog;
    private final LossSignals signals;
    private final ConcurrentHashMap<HoldKey, Hold> holds = new ConcurrentHashMap<>();
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

    /**
     * Where the registry keeps a hold: one holder's hold of one lock of one kind (a read-write
     * lock's two halves share keys). Not a hold id, which names one acquisition.
     */
    private record HoldKey(String lockKey, String type, String holderId) {
    }

    /**
     * @param scheduler           paces the watchdog's renewals
     * @param watchdogLeaseMillis lease of watchdog holds
     * @param renewalBatchSize    most holds renewed by one watchdog script call
     * @param slotOf              a key's cluster slot (0 off a cluster): renewals are batched by slot
     * @param events              listener dispatch
     * @param undos               takes back the hold ids of holds that ended before their release
     * @param clientClosed        whether the client is closing: holds taken then end their
     *                            observation at once
     * @param wakeLocalWaiter     wakes one local waiter of a hold's lock, found lost: the lock may be
     *                            free without anyone having published a release
     * @param callers             completes the futures of loss signals
     */
    HoldRegistry(ScheduledExecutorService scheduler, long watchdogLeaseMillis, int renewalBatchSize,
                 ToIntFunction<String> slotOf, LockEvents events, HoldUndos undos, BooleanSupplier clientClosed,
                 Consumer<Hold> wakeLocalWaiter, Executor callers) {
        this.watchdogLeaseMillis = watchdogLeaseMillis;
        this.events = events;
        this.undos = undos;
        this.clientClosed = clientClosed;
        this.wakeLocalWaiter = wakeLocalWaiter;
        this.watchdog = new LeaseWatchdog(scheduler, watchdogLeaseMillis, renewalBatchSize, slotOf, this);
        this.signals = new LossSignals(scheduler, callers);
    }

    /**
     * The loss signal of a holder's hold (see {@link LossSignals}), armed under the registry's lock
     * for that hold, so that the hold is not forgotten meanwhile.
     *
     * @param keys     the lock
     * @param protocol the kind of lock
     * @param holderId the holder
     * @return the signal; {@code null} if the holder holds nothing there (or only holds being
     *         released)
     */
    @Nullable CompletableFuture<LockLostException> lossSignal(LockKeys keys, LockProtocol protocol, String holderId) {
        List<CompletableFuture<LockLostException>> signal = new ArrayList<>(1);
        holds.computeIfPresent(new HoldKey(keys.lockKey(), protocol.type(), holderId), (key, hold) -> {
            if (hold.lost() || hold.holdsConfirmed()) {
                signal.add(signals.of(hold));
            }
            return hold;
        });
        return signal.isEmpty() ? null : signal.get(0);
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

    /**
     * @param keys     the lock
     * @param protocol the kind of lock (the read and write halves of one lock hold separately)
     * @param holderId the holder
     * @return this client's hold of that lock by that holder, or {@code null}
     */
    @Nullable Hold hold(LockKeys keys, LockProtocol protocol, String holderId) {
        return holds.get(new HoldKey(keys.lockKey(), protocol.type(), holderId));
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
     * {@code Releases.lostBefore}), and the hold was taken back when it ended.
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
            signals.leaseChanged(hold);
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
     * @param grantSentNanos {@link System#nanoTime()} when the command that granted it was sent
     * @param attempt     what Redis answered: the hold count and, for fenced locks, the token
     * @param handOffs    hand-offs in a row that led to this hold (0 if acquired from Redis)
     * @param observation the acquisition's observation, which starts the observation of a new hold
     * @return the hold
     */
    Hold acquired(LockId id, LockKeys keys, HoldRef acquisition, LockProtocol protocol, boolean renewedByWatchdog,
                  long leaseMillis, long grantSentNanos, Attempt attempt, int handOffs,
                  LockObservations.AcquisitionObservation observation) {
        HoldKey holdKey = new HoldKey(keys.lockKey(), protocol.type(), acquisition.holderId());
        Hold[] replaced = new Hold[1];
        boolean[] began = new boolean[1];
        Hold hold = holds.compute(holdKey, (key, current) -> {
            if (current != null && !current.lost() && (current.holdsConfirmed() || attempt.holdCount() > 1)) {
                // Joined under the registry's lock, so that forgetIf never drops the hold now.
                current.add(acquisition.holdId());
                if (renewedByWatchdog) {
                    current.watchdogFromNowOn(leaseMillis);
                } else {
                    current.leaseAtLeast(leaseMillis);
                }
                current.leaseConfirmed(grantSentNanos, leaseMillis);
                return current;
            }
            replaced[0] = current;
            began[0] = true;
            return new Hold(id, keys, acquisition.holderId(), protocol, renewedByWatchdog, leaseMillis,
                    grantSentNanos, acquisition.holdId(), attempt.token(), handOffs);
        });
        Hold previous = replaced[0];
        if (previous != null) {
            watchdog.unwatch(previous);
            signals.ended(previous);
            if (!previous.lost()) {
                // Only releases Redis never confirmed were left, and they did happen.
                events.released(previous, 0);
            }
        }
        if (began[0]) {
            hold.observedBy(observation.holdStarted());
            if (clientClosed.getAsBoolean()) {
                hold.observationEnded(false);  // close() may have looked at the holds before this one
            }
        }
        track(hold);  // also re-arms a hold whose last release was never confirmed
        if (!began[0]) {
            signals.leaseChanged(hold);  // joined: a signal left alone while it was being released looks again
        }
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
    void forgetExpiredHolds() {
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
            signals.ended(hold);
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
        signals.lost(hold);
        events.lost(hold);
        wakeLocalWaiter.accept(hold);
    }

    @Override
    public void failed(Hold hold, Throwable cause) {
        events.renewalFailed(hold, cause);
    }

    /**
     * @param locks where to add the locks held
     * @param now   the time now
     * @param nowNanos {@link System#nanoTime()} now
     */
    void addHeld(List<LockInfo> locks, Instant now, long nowNanos) {
        for (Hold hold : holds.values()) {
            int count = hold.count();
            if (count > 0 && !hold.lost()) {
                locks.add(new LockInfo(hold.lockName(), hold.protocol().type(), LockInfo.State.HELD, hold.holderId(),
                        count, Duration.ofMillis(Math.max(0, hold.remainingLeaseMillis())),
                        now.minusNanos(nowNanos - hold.acquiredNanos()), hold.watchdog()));
            }
        }
    }

    /** @return number of holds the watchdog renews now */
    int watchdogHolds() {
        return watchdog.size();
    }

    /**
     * Stops renewing leases (held locks expire after at most one lease) and ends the observations
     * of the holds: no longer kept by this client.
     */
    void close() {
        watchdog.close();
        signals.close();
        holds.values().forEach(hold -> hold.observationEnded(false));
        for (HoldKey holder : endedUnreleased.keySet()) {
            endedUnreleased.computeIfPresent(holder, (key, ended) -> {
                ended.forEach(hold -> hold.observationEnded(false));
                return ended;
            });
        }
    }
}

package io.distlock.core.internal.engine;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.distlock.core.LockLostException;
import org.jspecify.annotations.Nullable;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What this client knows about one holder's holds of one lock: the id of each hold Redis
 * confirmed (one per acquisition, re-entries included), how the lease is kept, and whether the
 * lease was found lost. Redis stays the authority; this state lets the watchdog know what to
 * renew, makes {@code unlock()} retry-safe and exact (a release names the hold it ends), and
 * turns a lost lease into {@link io.distlock.core.LockLostException}.
 */
public final class Hold {

    /**
     * One hold taken out for release.
     *
     * @param holdId the hold to release
     * @param retry  whether its release was sent before without an answer
     * @param last   whether no other hold of the holder is left to release after this one
     */
    record Release(String holdId, boolean retry, boolean last) {
    }

    /**
     * How the lease is kept: by the watchdog (renewed for {@code millis} at a time), or an
     * explicit lease ending at {@code endNanos} ({@link System#nanoTime()}), counted from Redis's
     * answer, so not before Redis ended it. Replaced as a whole (under this object's monitor), so
     * readers see one.
     */
    private record Lease(boolean watchdog, long millis, long endNanos) {
    }

    private final LockId id;
    private final LockKeys keys;
    private final String holderId;
    private final LockProtocol protocol;
    private volatile Lease lease;
    private final long acquiredNanos;
    private final int handOffs;
    private final long token;
    /** Holds Redis confirmed and nobody is releasing, oldest first. */
    @GuardedBy("this")
    private final ArrayDeque<String> held = new ArrayDeque<>(2);
    /** Holds whose release was sent and not confirmed: Redis may still have them. */
    @GuardedBy("this")
    private final ArrayDeque<String> unconfirmed = new ArrayDeque<>(1);
    /** Releases sent and not answered yet. */
    @GuardedBy("this")
    private int releasing;
    /** The hold last taken out for release; the first hold until one is. */
    @GuardedBy("this")
    private String lastTaken;
    /**
     * What {@link #renewalId()} answers, set under this object's monitor whenever the holds above
     * change: the watchdog reads it for every hold every round, without taking the monitor.
     */
    private volatile String renewalId;
    @GuardedBy("this")
    private long unconfirmedSinceNanos;
    /**
     * {@link System#nanoTime()} before which the lease cannot end on the server: the latest end of
     * the leases that commands Redis confirmed set (the grant, re-entries, watchdog renewals, a
     * composite's lease), each counted from when the command was sent, since the server ran it
     * later. An exact lease a composite sets may lower it. Written under this object's monitor.
     */
    private volatile long leaseFloorNanos;
    private volatile boolean lost;
    private volatile long lostNanos;
    /**
     * The observation of this hold, from first hold to its end: {@code null} until it starts,
     * {@link Ended} once the hold ended (if before it started, it is ended as soon as it starts).
     */
    private final AtomicReference<LockObservations.HoldObservation> observation = new AtomicReference<>();

    /**
     * @param grantSentNanos {@link System#nanoTime()} when the command that granted the hold was
     *                       sent: its lease began on the server after that
     */
    Hold(LockId id, LockKeys keys, String holderId, LockProtocol protocol, boolean watchdog, long leaseMillis,
         long grantSentNanos, String holdId, long token, int handOffs) {
        this.id = id;
        this.keys = keys;
        this.holderId = holderId;
        this.protocol = protocol;
        this.held.add(holdId);
        this.lastTaken = holdId;
        this.renewalId = holdId;
        this.handOffs = handOffs;
        this.token = token;
        this.acquiredNanos = System.nanoTime();
        this.lease = new Lease(watchdog, leaseMillis, acquiredNanos + leaseMillis * 1_000_000L);
        this.leaseFloorNanos = grantSentNanos + leaseMillis * 1_000_000L;
    }

    /** @return the lock's name */
    public String lockName() {
        return id.name();
    }

    /** @return the lock's name and group */
    public LockId id() {
        return id;
    }

    /** @return the lock's Redis keys */
    public LockKeys keys() {
        return keys;
    }

    /** @return the holder */
    public String holderId() {
        return holderId;
    }

    /** @return the kind of lock, which also renews it */
    public LockProtocol protocol() {
        return protocol;
    }

    /** @return whether the watchdog keeps the lease alive */
    public boolean watchdog() {
        return lease.watchdog();
    }

    /**
     * A re-entry without lease time: the watchdog keeps the lease alive from now on.
     *
     * @param watchdogLeaseMillis the watchdog's lease
     */
    synchronized void watchdogFromNowOn(long watchdogLeaseMillis) {
        this.lease = new Lease(true, watchdogLeaseMillis, lease.endNanos());
    }

    /**
     * The lease is explicit from now on (no longer the watchdog's, if it was): it ends after
     * {@code leaseMillis} unless released before.
     *
     * @param leaseMillis the lease, from now
     */
    synchronized void leaseFromNow(long leaseMillis) {
        long end = System.nanoTime() + leaseMillis * 1_000_000L;  // before it is sent: the server's ends later
        this.lease = new Lease(false, leaseMillis, end);
        if (leaseFloorNanos - end > 0) {
            leaseFloorNanos = end;  // may be shorter than what Redis had; longer only once confirmed
        }
    }

    /**
     * The exact lease a composite set ({@link #leaseFromNow}) was confirmed: the lease lasts that
     * long from the command's send.
     *
     * @param sentNanos   {@link System#nanoTime()} when it was sent
     * @param leaseMillis the lease
     */
    synchronized void exactLeaseConfirmed(long sentNanos, long leaseMillis) {
        if (!lease.watchdog()) {
            leaseFloorNanos = sentNanos + leaseMillis * 1_000_000L;
        }
    }

    /**
     * A re-entry with an explicit lease: Redis keeps the lock at least that long from now (a
     * re-entry never shortens the lease).
     *
     * @param reentryLeaseMillis the re-entry's lease
     */
    synchronized void leaseAtLeast(long reentryLeaseMillis) {
        Lease current = lease;
        long end = System.nanoTime() + reentryLeaseMillis * 1_000_000L;
        if (!current.watchdog() && end - current.endNanos() > 0) {
            this.lease = new Lease(false, reentryLeaseMillis, end);
        }
    }

    /**
     * A command that never shortens the lease (an acquisition, a re-entry, a composite's
     * lengthening) was confirmed: the lease lasts at least {@code leaseMillis} from its send.
     *
     * @param sentNanos   {@link System#nanoTime()} when it was sent
     * @param leaseMillis the lease it set
     */
    synchronized void leaseConfirmed(long sentNanos, long leaseMillis) {
        long end = sentNanos + leaseMillis * 1_000_000L;
        if (end - leaseFloorNanos > 0) {
            leaseFloorNanos = end;
        }
    }

    /**
     * A watchdog renewal was confirmed: as {@link #leaseConfirmed}, while the watchdog keeps the
     * lease (a composite may have set a shorter explicit one since the renewal was sent).
     *
     * @param sentNanos   {@link System#nanoTime()} when it was sent
     * @param leaseMillis the watchdog lease
     */
    public synchronized void renewalConfirmed(long sentNanos, long leaseMillis) {
        if (lease.watchdog()) {
            leaseConfirmed(sentNanos, leaseMillis);
        }
    }

    /**
     * @return how long the lease lasts at most from now, as far as this client knows: a full lease
     *         for watchdog holds, else what is left of the longest explicit lease any of its holds set
     */
    public long remainingLeaseMillis() {
        Lease current = lease;
        return current.watchdog() ? current.millis()
                : Math.max(0, (current.endNanos() - System.nanoTime()) / 1_000_000L);
    }

    /**
     * @return the lease asked for: the watchdog's, or the explicit lease of the hold that set it
     */
    long leaseMillis() {
        return lease.millis();
    }

    /**
     * @return {@link System#nanoTime()} before which the lease cannot end on the server, by the
     *         commands Redis confirmed set it (see {@link #leaseFloorNanos})
     */
    public long leaseEndsNotBeforeNanos() {
        return leaseFloorNanos;
    }

    /**
     * @return for an explicit lease, how long ago it ended in milliseconds (negative while it
     *         lasts); for watchdog holds, which do not end, a negative number
     */
    long millisSinceLeaseEnded() {
        Lease current = lease;
        return current.watchdog() ? -1 : (System.nanoTime() - current.endNanos()) / 1_000_000L;
    }

    /** @return {@link System#nanoTime()} when the first hold was taken */
    public long acquiredNanos() {
        return acquiredNanos;
    }

    /** @return how many hand-offs in a row, between holders of this client, led to this hold (0: none) */
    public int handOffs() {
        return handOffs;
    }

    /** @return the fencing token of this hold (the same for its re-entries); 0 for locks without tokens */
    public long token() {
        return token;
    }

    /** @return how many holds the holder has, as far as Redis confirmed: releases not yet confirmed count */
    public synchronized int count() {
        return held.size() + unconfirmed.size() + releasing;
    }

    /** @param holdId another hold Redis confirmed (a re-entry, or an overlapping acquisition) */
    synchronized void add(String holdId) {
        held.add(holdId);
        holdsChanged();
    }

    /** @return the holder's latest hold Redis confirmed that nobody is releasing, or {@code null} */
    synchronized @Nullable String latestHoldId() {
        return held.peekLast();
    }

    /** @return whether the holder has a hold Redis confirmed that nobody is releasing */
    synchronized boolean holdsConfirmed() {
        return !held.isEmpty();
    }

    /**
     * Runs the action if the holder has a hold Redis confirmed that nobody is releasing and the
     * lease is not known lost; no release takes a hold out while it runs.
     *
     * @param action what to do while that lasts (must not wait)
     */
    synchronized void whileHeld(Runnable action) {
        if (!held.isEmpty() && !lost) {
            action.run();
        }
    }

    /**
     * Takes a hold out to release it.
     *
     * @param holdId the hold to release, or {@code null} for the latest: a release that was sent
     *               without an answer is sent again first (it may or may not have happened)
     * @return what to release, or {@code null} if there is no such hold
     */
    synchronized @Nullable Release takeForRelease(@Nullable String holdId) {
        boolean retry;
        String taken;
        if (holdId != null) {
            retry = !held.remove(holdId);
            taken = retry && !unconfirmed.remove(holdId) ? null : holdId;
        } else {
            retry = !unconfirmed.isEmpty();
            taken = retry ? unconfirmed.pollLast() : held.pollLast();
        }
        if (taken == null) {
            return null;
        }
        releasing++;
        lastTaken = taken;
        holdsChanged();
        return new Release(taken, retry, held.isEmpty() && unconfirmed.isEmpty());
    }

    /** A release taken out with {@link #takeForRelease} ended: Redis confirmed it, or the hold is gone. */
    synchronized void releaseEnded() {
        releasing--;
    }

    /**
     * A release taken out with {@link #takeForRelease} got no answer: it may or may not have
     * happened, and is sent again by the next release.
     *
     * @param holdId the hold
     */
    synchronized void releaseUnconfirmed(String holdId) {
        releasing--;
        if (unconfirmed.isEmpty()) {
            unconfirmedSinceNanos = System.nanoTime();
        }
        unconfirmed.add(holdId);
        holdsChanged();
    }

    /** @return every hold Redis may still have: confirmed ones, and those whose release Redis did not confirm */
    synchronized List<String> holdIds() {
        List<String> ids = new ArrayList<>(held);
        ids.addAll(unconfirmed);
        return ids;
    }

    /** @return the holds whose release was sent without an answer, oldest first */
    synchronized List<String> unconfirmedHoldIds() {
        return List.copyOf(unconfirmed);
    }

    /** @return whether the holder has no hold left but ones whose release Redis did not confirm */
    synchronized boolean onlyUnconfirmedLeft() {
        return held.isEmpty() && releasing == 0 && !unconfirmed.isEmpty();
    }

    /**
     * @return a hold id the watchdog renews the lease by: one Redis should still have (the hold
     *         being released last, when none is left)
     */
    public String renewalId() {
        return renewalId;
    }

    /** Called after every change of the holds: sets {@link #renewalId}. */
    @GuardedBy("this")
    private void holdsChanged() {
        String current = held.peekFirst();
        if (current == null) {
            current = unconfirmed.peekFirst();
        }
        renewalId = current == null ? lastTaken : current;
    }

    /**
     * @param holdId a hold id of this holder's
     * @return whether the holder still has it as far as this client knows (not released, or its
     *         release not confirmed)
     */
    public synchronized boolean stillHolds(String holdId) {
        return held.contains(holdId) || unconfirmed.contains(holdId);
    }

    /**
     * @param started the observation of this hold, started as it began; ended at once if the hold
     *                ended meanwhile (an overlapping acquisition of the holder found it lost, or
     *                the client was closed)
     */
    void observedBy(LockObservations.HoldObservation started) {
        if (!observation.compareAndSet(null, started) && observation.get() instanceof Ended ended) {
            started.ended(ended.lost());
        }
    }

    /**
     * The hold ended: its observation ends, once, however often this is called.
     *
     * @param lost whether its lease was lost rather than released
     */
    void observationEnded(boolean lost) {
        LockObservations.HoldObservation before = observation.getAndUpdate(o -> o instanceof Ended ? o : new Ended(lost));
        if (before != null && !(before instanceof Ended)) {
            before.ended(lost);
        }
    }

    /** @param cause why a renewal of the hold failed, reported on its observation while it lasts */
    void observationRenewalFailed(Throwable cause) {
        LockObservations.HoldObservation current = observation.get();
        if (current != null && !(current instanceof Ended)) {
            current.renewalFailed(cause);
        }
    }

    /** @param cause what the holder was told when its lease was found at risk, reported on its observation */
    void observationAtRisk(LockLostException cause) {
        LockObservations.HoldObservation current = observation.get();
        if (current != null && !(current instanceof Ended)) {
            current.leaseAtRisk(cause);
        }
    }

    /** How the hold ended, in place of its observation once ended. */
    private record Ended(boolean lost) implements LockObservations.HoldObservation {

        @Override
        public void renewalFailed(Throwable cause) {
        }

        @Override
        public void leaseAtRisk(LockLostException cause) {
        }

        @Override
        public void ended(boolean lostAgain) {
        }
    }

    /** @return whether the lease was found lost */
    public boolean lost() {
        return lost;
    }

    void markLost() {
        this.lostNanos = System.nanoTime();
        this.lost = true;
    }

    /** @return for a hold found lost, how long ago in milliseconds; otherwise a negative number */
    long millisSinceLost() {
        return lost ? (System.nanoTime() - lostNanos) / 1_000_000L : -1;
    }

    /**
     * @return for a holder whose only holds left are releases Redis never confirmed, how long ago
     *         the first was sent, in milliseconds; otherwise a negative number
     */
    synchronized long millisSinceUnconfirmedLastRelease() {
        return onlyUnconfirmedLeft() ? (System.nanoTime() - unconfirmedSinceNanos) / 1_000_000L : -1;
    }
}

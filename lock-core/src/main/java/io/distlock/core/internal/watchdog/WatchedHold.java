package io.distlock.core.internal.watchdog;

import io.distlock.core.internal.engine.Hold;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The watchdog's state of one hold it renews: which renewal calls may take it together (its
 * batch group), when Redis last confirmed the lease, which renewal call (if any) has the hold in
 * flight, and in which round the hold was last reported failed.
 *
 * <p>The watchdog visits every watched hold each round, thousands of them: their state lives in
 * plain fields updated atomically through {@link VarHandle}s rather than in atomic objects of
 * their own, so that a visit reads one object. The fields that change are numbers, never
 * references: a hold lives long enough to reach the old generation, and storing a reference to a
 * new object (the call that claims it) into an old one makes the collector track the store, once
 * per hold and round (G1's concurrent refinement cost about 0.3 s of CPU a minute at 20,000 holds).
 */
final class WatchedHold {

    private static final VarHandle CONFIRMED_NANOS;
    private static final VarHandle IN_FLIGHT;
    private static final VarHandle REPORTED_ROUND;

    /** {@link #inFlight} when no call has the hold in flight (call ids start at 1). */
    private static final long NOT_IN_FLIGHT = 0;

    static {
        MethodHandles.Lookup lookup = MethodHandles.lookup();
        try {
            CONFIRMED_NANOS = lookup.findVarHandle(WatchedHold.class, "confirmedNanos", long.class);
            IN_FLIGHT = lookup.findVarHandle(WatchedHold.class, "inFlight", long.class);
            REPORTED_ROUND = lookup.findVarHandle(WatchedHold.class, "reportedRound", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Hold hold;
    private final BatchGroup group;
    /** {@link System#nanoTime()} when the call that last confirmed the lease was sent. */
    @SuppressWarnings("unused") // through CONFIRMED_NANOS
    private volatile long confirmedNanos;
    /** {@link RenewalCall#id()} of the call that has the hold in flight, or {@link #NOT_IN_FLIGHT} (0, the default). */
    @SuppressWarnings("unused") // through IN_FLIGHT
    private volatile long inFlight;
    @SuppressWarnings("unused") // through REPORTED_ROUND
    private volatile long reportedRound = -1;

    /**
     * @param hold       the hold
     * @param group      the renewal calls that may take it
     * @param leaseNanos {@link System#nanoTime()} from which its current lease is known to run
     */
    WatchedHold(Hold hold, BatchGroup group, long leaseNanos) {
        this.hold = hold;
        this.group = group;
        this.confirmedNanos = leaseNanos;
    }

    Hold hold() {
        return hold;
    }

    /** @return the renewal calls that may take this hold: those of its kind of lock and cluster slot */
    BatchGroup group() {
        return group;
    }

    /** @return whether a renewal call of the hold is waiting for its answer, within its deadline */
    boolean inFlight() {
        return inFlight != NOT_IN_FLIGHT;
    }

    /**
     * @param call a call about to be sent
     * @return whether the call now has the hold in flight (no other call had)
     */
    boolean claim(RenewalCall call) {
        return IN_FLIGHT.compareAndSet(this, NOT_IN_FLIGHT, call.id());
    }

    /** @param call a call that was answered or missed its deadline: the hold is free for the next one */
    void release(RenewalCall call) {
        IN_FLIGHT.compareAndSet(this, call.id(), NOT_IN_FLIGHT);
    }

    /**
     * @param sentNanos when a call Redis answered "renewed" was sent: the lease runs at least from
     *                  then (answers may come out of order; the latest send counts)
     */
    void confirmed(long sentNanos) {
        long known;
        do {
            known = confirmedNanos;
            if (sentNanos - known <= 0) {
                return;
            }
        } while (!CONFIRMED_NANOS.compareAndSet(this, known, sentNanos));
    }

    /**
     * @param nanos a {@link System#nanoTime()}
     * @return whether a renewal sent at that time or later was confirmed
     */
    boolean confirmedSince(long nanos) {
        return confirmedNanos - nanos >= 0;
    }

    /**
     * @param nowNanos {@link System#nanoTime()}
     * @return how long ago the last confirmed renewal (or the hold) began its lease
     */
    long unconfirmedNanos(long nowNanos) {
        return nowNanos - confirmedNanos;
    }

    /**
     * @param round the current round
     * @return whether the hold was not yet reported failed in this round (it is counted as reported now)
     */
    boolean firstReportIn(long round) {
        return (long) REPORTED_ROUND.getAndSet(this, round) != round;
    }
}

package io.distlock.core.watchdog;

import io.distlock.core.engine.Hold;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The watchdog's state of one hold it renews: when Redis last confirmed the lease, which renewal
 * call (if any) has the hold in flight, and in which round the hold was last reported failed.
 */
final class WatchedHold {

    private final Hold hold;
    /** {@link System#nanoTime()} when the call that last confirmed the lease was sent. */
    private final AtomicLong confirmedNanos;
    private final AtomicReference<RenewalCall> inFlight = new AtomicReference<>();
    private final AtomicLong reportedRound = new AtomicLong(-1);

    /**
     * @param hold       the hold
     * @param leaseNanos {@link System#nanoTime()} from which its current lease is known to run
     */
    WatchedHold(Hold hold, long leaseNanos) {
        this.hold = hold;
        this.confirmedNanos = new AtomicLong(leaseNanos);
    }

    Hold hold() {
        return hold;
    }

    /** @return whether a renewal call of the hold is waiting for its answer, within its deadline */
    boolean inFlight() {
        return inFlight.get() != null;
    }

    /**
     * @param call a call about to be sent
     * @return whether the call now has the hold in flight (no other call had)
     */
    boolean claim(RenewalCall call) {
        return inFlight.compareAndSet(null, call);
    }

    /** @param call a call that was answered or missed its deadline: the hold is free for the next one */
    void release(RenewalCall call) {
        inFlight.compareAndSet(call, null);
    }

    /**
     * @param sentNanos when a call Redis answered "renewed" was sent: the lease runs at least from
     *                  then (answers may come out of order; the latest send counts)
     */
    void confirmed(long sentNanos) {
        confirmedNanos.accumulateAndGet(sentNanos, (known, sent) -> sent - known > 0 ? sent : known);
    }

    /**
     * @param nanos a {@link System#nanoTime()}
     * @return whether a renewal sent at that time or later was confirmed
     */
    boolean confirmedSince(long nanos) {
        return confirmedNanos.get() - nanos >= 0;
    }

    /**
     * @param nowNanos {@link System#nanoTime()}
     * @return how long ago the last confirmed renewal (or the hold) began its lease
     */
    long unconfirmedNanos(long nowNanos) {
        return nowNanos - confirmedNanos.get();
    }

    /**
     * @param round the current round
     * @return whether the hold was not yet reported failed in this round (it is counted as reported now)
     */
    boolean firstReportIn(long round) {
        return reportedRound.getAndSet(round) != round;
    }
}

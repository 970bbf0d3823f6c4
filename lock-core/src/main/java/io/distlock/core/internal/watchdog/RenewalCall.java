package io.distlock.core.internal.watchdog;

import io.distlock.core.internal.engine.Hold;
import io.distlock.core.internal.engine.LockProtocol;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One renewal script call: a batch of holds of one kind of lock in one cluster slot, when it was
 * sent, whether it is already the retry of a failed call, and whether it was settled — answered, or
 * given up at its deadline, whichever came first.
 */
final class RenewalCall {

    /** Source of call ids: unique in the JVM, from 1. */
    private static final AtomicLong IDS = new AtomicLong();

    private final long id = IDS.incrementAndGet();
    private final LockProtocol protocol;
    private final boolean retry;
    private final long sentNanos = System.nanoTime();
    private final List<WatchedHold> holds;
    /** The claimed holds themselves, for the script. */
    private final List<Hold> claimed;
    /** Per claimed hold, the hold id the call renews it by, chosen when claimed. */
    private final List<String> holdIds;
    private final AtomicBoolean settled = new AtomicBoolean();

    /**
     * @param protocol renews the holds
     * @param retry    whether this call retries a failed one (a retry is not retried)
     * @param capacity the most holds it will claim
     */
    RenewalCall(LockProtocol protocol, boolean retry, int capacity) {
        this.protocol = protocol;
        this.retry = retry;
        this.holds = new ArrayList<>(capacity);
        this.claimed = new ArrayList<>(capacity);
        this.holdIds = new ArrayList<>(capacity);
    }

    /**
     * Takes the hold into this call, unless another call has it in flight.
     *
     * @param candidate a hold of the call's kind and slot
     * @return whether this call has it now
     */
    boolean claim(WatchedHold candidate) {
        if (!candidate.claim(this)) {
            return false;
        }
        holds.add(candidate);
        claimed.add(candidate.hold());
        holdIds.add(candidate.hold().renewalId());
        return true;
    }

    /** @return this call's id, unique in the JVM and never 0: what a hold in flight notes (see {@link WatchedHold}) */
    long id() {
        return id;
    }

    /** @return how many holds the call claimed */
    int size() {
        return holds.size();
    }

    LockProtocol protocol() {
        return protocol;
    }

    boolean isRetry() {
        return retry;
    }

    long sentNanos() {
        return sentNanos;
    }

    /** @return the watchdog's state of the claimed holds, in the order of the script's keys */
    List<WatchedHold> watched() {
        return holds;
    }

    /** @return the claimed holds, for the script */
    List<Hold> holds() {
        return claimed;
    }

    /** @return per claimed hold, in order, the hold id this call renews it by */
    List<String> holdIds() {
        return holdIds;
    }

    /**
     * Ends the holds' claim: they may go out in another call.
     *
     * @return whether this was the first settlement (the answer within the deadline, or the
     *         deadline before any answer)
     */
    boolean settle() {
        holds.forEach(hold -> hold.release(this));
        return settled.compareAndSet(false, true);
    }
}

package io.distlock.core.internal.watchdog;

import io.distlock.core.internal.engine.Hold;
import io.distlock.core.internal.engine.LockProtocol;
import org.jspecify.annotations.Nullable;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToIntFunction;

/**
 * Keeps the leases of a client's watchdog holds alive: one periodic task per client, every
 * lease/3. Each round renews all watched holds with few script calls (up to {@code batchSize}
 * holds per call, grouped by lock kind and, on a cluster, by hash slot), all sent at once so they
 * pipeline on the shared connection.
 *
 * <p>No call can hold up the others: each call has a deadline well inside a round (two fifths of
 * it, but at least {@value #MIN_CALL_DEADLINE_MILLIS} ms, and at most a round), and a hold whose
 * call is still waiting within its deadline is left out of the next round, while every other hold
 * goes out as usual. A call that fails or misses its deadline is retried at once, one time; after
 * that the hold goes out with the next round. A call and its retry are both over before the next
 * round, so that round sends the hold again: a lease gets four tries before it could end (with the
 * default 30 s, confirmed at 0: at 10, 14, 20 and 24 s), and two lost answers in a row do not
 * lose it.
 * An answer that comes after the deadline still counts. A hold that Redis no longer has is
 * reported lost and no longer watched. A hold is reported failed, at most once per round, when a
 * call renewing it fails, and when a call renewing it has no answer by its deadline and nothing
 * confirmed the lease since the call was sent: the result is unknown while the lease (confirmed
 * about a round before the call, or later) still has a third of its time or more, enough to report
 * it and act on it. Never below {@value #MIN_CALL_DEADLINE_MILLIS} ms, because a loaded machine
 * stalls threads for hundreds of milliseconds: a shorter deadline would report renewals that were
 * merely late.
 */
public final class LeaseWatchdog implements AutoCloseable {

    /** Where the outcome of each hold's renewal goes. */
    public interface RenewalOutcomes {
        /** @param holds renewed for another full lease, by one call */
        void renewed(List<Hold> holds);

        /** @param hold no longer held in Redis: its lease was lost */
        void lost(Hold hold);

        /**
         * Reported at most once per hold and round; the watchdog keeps trying.
         *
         * @param hold  not renewed: a renewal call failed, or had no answer by its deadline (the
         *              lease then has about a third of its time left, or more)
         * @param cause the failure; a {@link TimeoutException} for a call without an answer
         */
        void failed(Hold hold, Throwable cause);
    }

    /** Shortest deadline of a renewal call (unless a round is shorter still). */
    static final long MIN_CALL_DEADLINE_MILLIS = 1_000;

    private static final System.Logger LOG = System.getLogger(LeaseWatchdog.class.getName());

    private final ScheduledExecutorService scheduler;
    private final long leaseMillis;
    private final long callDeadlineMillis;
    private final int batchSize;
    private final RenewalOutcomes outcomes;
    private final ToIntFunction<String> slotOf;
    private final Map<Hold, WatchedHold> watched = new ConcurrentHashMap<>();
    private final AtomicLong rounds = new AtomicLong();
    private volatile boolean closed;
    private final ScheduledFuture<?> ticker;

    /**
     * Starts the watchdog's periodic task.
     *
     * @param scheduler   the client's scheduler; runs the rounds, the calls' deadlines and retries,
     *                    never waits for Redis
     * @param leaseMillis lease set on each renewal; rounds run every third of it, each call has
     *                    two fifths of a round to be answered (see the class comment)
     * @param batchSize   most holds renewed by one script call
     * @param slotOf      the cluster hash slot of a lock key (a constant when not on a cluster):
     *                    one script call renews holds of one slot only
     * @param outcomes    receives each hold's outcome
     */
    public LeaseWatchdog(ScheduledExecutorService scheduler, long leaseMillis, int batchSize,
                         ToIntFunction<String> slotOf, RenewalOutcomes outcomes) {
        this.scheduler = scheduler;
        this.leaseMillis = leaseMillis;
        this.batchSize = batchSize;
        this.slotOf = slotOf;
        this.outcomes = outcomes;
        long interval = Math.max(1, leaseMillis / 3);
        this.callDeadlineMillis = Math.min(interval, Math.max(interval * 2 / 5, MIN_CALL_DEADLINE_MILLIS));
        this.ticker = scheduler.scheduleAtFixedRate(this::tick, interval, interval, TimeUnit.MILLISECONDS);
    }

    /**
     * @param hold renewed from the next round on, until {@link #unwatch(Hold)}; its lease is known
     *             to run from a watchdog lease before the earliest end Redis confirmed
     */
    public void watch(Hold hold) {
        watched.computeIfAbsent(hold, h -> new WatchedHold(h,
                new BatchGroup(h.protocol(), slotOf.applyAsInt(h.keys().lockKey())),
                h.leaseEndsNotBeforeNanos() - TimeUnit.MILLISECONDS.toNanos(leaseMillis)));
    }


    /**
     * @param hold no longer renewed
     * @return whether it was watched
     */
    public boolean unwatch(Hold hold) {
        return watched.remove(hold) != null;
    }

    /** @return number of holds renewed by this watchdog now */
    public int size() {
        return watched.size();
    }

    @Override
    public void close() {
        closed = true;
        ticker.cancel(false);
        watched.clear();
    }

    private void tick() {
        if (watched.isEmpty()) {
            return;
        }
        rounds.incrementAndGet();
        try {
            // Each hold is claimed as the sweep reaches it, while its state is at hand: thousands
            // of holds do not stay in the processor's caches until a second pass.
            Map<BatchGroup, RenewalCall> filling = new HashMap<>();
            for (WatchedHold hold : watched.values()) {
                if (hold.inFlight()) {
                    continue;
                }
                RenewalCall call = filling.computeIfAbsent(hold.group(),
                        group -> new RenewalCall(group.protocol(), false, batchSize));
                if (call.claim(hold) && call.size() == batchSize) {
                    filling.remove(hold.group());
                    send(call);
                }
            }
            filling.values().forEach(this::send);
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "Lease renewal round failed; retrying next round", e);
        }
    }

    /** Sends a call, unless it claimed no hold. */
    private void send(RenewalCall call) {
        if (call.size() == 0) {
            return;
        }
        LockProtocol protocol = call.protocol();
        ScheduledFuture<?> deadline;
        try {
            deadline = scheduler.schedule(() -> missedDeadline(call), callDeadlineMillis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            call.settle();  // the client is closing
            return;
        }
        CompletableFuture<List<Long>> answer;
        try {
            answer = protocol.renew(call.holds(), call.holdIds(), leaseMillis);
        } catch (RuntimeException e) {
            answer = CompletableFuture.failedFuture(e);
        }
        answer.whenComplete((stillHeld, error) -> {
            deadline.cancel(false);
            answered(call, stillHeld, error);
        });
    }

    /** Redis answered (maybe after the deadline: a late answer is still true). */
    private void answered(RenewalCall call, List<Long> stillHeld, @Nullable Throwable error) {
        boolean inTime = call.settle();
        long round = rounds.get();
        List<WatchedHold> holds = call.watched();
        List<Hold> renewed = new ArrayList<>(error == null ? holds.size() : 0);
        for (int i = 0; i < holds.size(); i++) {
            WatchedHold hold = holds.get(i);
            if (!isWatched(hold)) {
                continue;
            }
            if (error != null) {
                if (hold.firstReportIn(round)) {
                    outcomes.failed(hold.hold(), error);
                }
            } else if (stillHeld.get(i) == 1L) {
                hold.confirmed(call.sentNanos());
                hold.hold().renewalConfirmed(call.sentNanos(), leaseMillis);
                renewed.add(hold.hold());
            } else if (hold.hold().stillHolds(call.holdIds().get(i)) && watched.remove(hold.hold(), hold)) {
                // Gone although the holder still has it: lost. (Released by the holder while the
                // call was on its way is no loss: the next round renews by a hold it still has.)
                outcomes.lost(hold.hold());
            }
        }
        if (!renewed.isEmpty()) {
            outcomes.renewed(renewed);  // one report per call: thousands of holds per round
        }
        if (error != null && inTime) {
            retry(call);
        }
    }

    /** The deadline passed without an answer: the renewal's result is unknown, the lease at risk. */
    private void missedDeadline(RenewalCall call) {
        if (!call.settle()) {
            return;
        }
        long now = System.nanoTime();
        long round = rounds.get();
        for (WatchedHold hold : call.watched()) {
            if (isWatched(hold) && !hold.confirmedSince(call.sentNanos()) && hold.firstReportIn(round)) {
                outcomes.failed(hold.hold(), new TimeoutException("No answer to the lease renewal within "
                        + callDeadlineMillis + " ms, so its result is unknown; the last confirmed lease of "
                        + leaseMillis + " ms began up to " + TimeUnit.NANOSECONDS.toMillis(hold.unconfirmedNanos(now))
                        + " ms ago; still trying"));
            }
        }
        retry(call);
    }

    /** Sends the still watched holds of a failed call again at once, unless the call was a retry. */
    private void retry(RenewalCall failed) {
        if (failed.isRetry() || closed) {
            return;
        }
        List<WatchedHold> holds = failed.watched().stream().filter(this::isWatched).toList();
        try {
            scheduler.execute(() -> {
                RenewalCall call = new RenewalCall(failed.protocol(), true, holds.size());
                holds.forEach(call::claim);  // those that no other call has in flight
                send(call);
            });
        } catch (RejectedExecutionException e) {
            // the client is closing: nothing left to renew
        }
    }

    private boolean isWatched(WatchedHold hold) {
        return watched.get(hold.hold()) == hold;
    }
}

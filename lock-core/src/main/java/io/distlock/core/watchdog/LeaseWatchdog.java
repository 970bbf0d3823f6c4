package io.distlock.core.watchdog;

import io.distlock.core.engine.Hold;
import io.distlock.core.engine.LockProtocol;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.ToIntFunction;

/**
 * Keeps the leases of a client's watchdog holds alive: one periodic task per client, every
 * lease/3. Each round renews all watched holds with few script calls (up to {@code batchSize}
 * holds per call, grouped by lock kind and, on a cluster, by hash slot), all sent at once so they pipeline on the shared
 * connection. A hold that Redis no longer has is reported lost and no longer watched; a Redis
 * failure is reported and retried next round. A round still waiting for Redis makes the next
 * tick skip, so slow Redis never piles up renewals.
 */
public final class LeaseWatchdog implements AutoCloseable {

    /** Where the outcome of each hold's renewal goes. */
    public interface RenewalOutcomes {
        /** @param hold renewed for another full lease */
        void renewed(Hold hold);

        /** @param hold no longer held in Redis: its lease was lost */
        void lost(Hold hold);

        /**
         * @param hold  not renewed this round because Redis failed
         * @param cause the failure
         */
        void failed(Hold hold, Throwable cause);
    }

    private static final System.Logger LOG = System.getLogger(LeaseWatchdog.class.getName());

    private final long leaseMillis;
    private final int batchSize;
    private final RenewalOutcomes outcomes;
    private final ToIntFunction<String> slotOf;
    private final Set<Hold> watched = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean roundInFlight = new AtomicBoolean();
    private final ScheduledFuture<?> ticker;

    /**
     * Starts the watchdog's periodic task.
     *
     * @param scheduler   the client's scheduler
     * @param leaseMillis lease set on each renewal; rounds run every third of it
     * @param batchSize   most holds renewed by one script call
     * @param slotOf      the cluster hash slot of a lock key (a constant when not on a cluster):
     *                    one script call renews holds of one slot only
     * @param outcomes    receives each hold's outcome
     */
    public LeaseWatchdog(ScheduledExecutorService scheduler, long leaseMillis, int batchSize,
                         ToIntFunction<String> slotOf, RenewalOutcomes outcomes) {
        this.leaseMillis = leaseMillis;
        this.batchSize = batchSize;
        this.slotOf = slotOf;
        this.outcomes = outcomes;
        long interval = Math.max(1, leaseMillis / 3);
        this.ticker = scheduler.scheduleAtFixedRate(this::tick, interval, interval, TimeUnit.MILLISECONDS);
    }

    /** @param hold renewed from the next round on, until {@link #unwatch(Hold)} */
    public void watch(Hold hold) {
        watched.add(hold);
    }

    /**
     * @param hold no longer renewed
     * @return whether it was watched
     */
    public boolean unwatch(Hold hold) {
        return watched.remove(hold);
    }

    /** @return number of holds renewed by this watchdog now */
    public int size() {
        return watched.size();
    }

    @Override
    public void close() {
        ticker.cancel(false);
        watched.clear();
    }

    private void tick() {
        if (watched.isEmpty() || !roundInFlight.compareAndSet(false, true)) {
            return;
        }
        try {
            List<CompletableFuture<Void>> calls = new ArrayList<>();
            groupByProtocolAndSlot().forEach((group, holds) -> {
                for (int from = 0; from < holds.size(); from += batchSize) {
                    calls.add(renew(group.protocol(), holds.subList(from, Math.min(holds.size(), from + batchSize))));
                }
            });
            // A round never outlives a lease, even on a client whose commands have no timeout.
            CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new))
                    .orTimeout(leaseMillis, TimeUnit.MILLISECONDS)
                    .whenComplete((ignored, error) -> roundInFlight.set(false));
        } catch (RuntimeException e) {
            roundInFlight.set(false);
            LOG.log(Level.ERROR, "Lease renewal round failed; retrying next round", e);
        }
    }

    /** Holds one script call may renew together: same kind of lock, same cluster slot. */
    private record BatchGroup(LockProtocol protocol, int slot) {
    }

    private Map<BatchGroup, List<Hold>> groupByProtocolAndSlot() {
        Map<BatchGroup, List<Hold>> groups = new HashMap<>();
        for (Hold hold : watched) {
            BatchGroup group = new BatchGroup(hold.protocol(), slotOf.applyAsInt(hold.keys().lockKey()));
            groups.computeIfAbsent(group, g -> new ArrayList<>()).add(hold);
        }
        return groups;
    }

    private CompletableFuture<Void> renew(LockProtocol protocol, List<Hold> batch) {
        return protocol.renew(batch, leaseMillis).handle((stillHeld, error) -> {
            for (int i = 0; i < batch.size(); i++) {
                Hold hold = batch.get(i);
                if (error != null) {
                    if (watched.contains(hold)) {
                        outcomes.failed(hold, error);
                    }
                } else if (stillHeld.get(i) == 1L) {
                    if (watched.contains(hold)) {
                        outcomes.renewed(hold);
                    }
                } else if (watched.remove(hold)) {
                    outcomes.lost(hold);
                }
            }
            return null;
        });
    }
}

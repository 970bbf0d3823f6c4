package io.distlock.core.internal.engine;

import io.distlock.core.LockEvent;
import io.distlock.core.LockListener;
import org.jspecify.annotations.Nullable;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * Reports what the engine does with locks, under the lock type the client reports (see
 * {@link io.distlock.core.LockClient.Builder#reportedLockType}), to two audiences:
 * <ul>
 *   <li>{@link LockObservations}, at once, on the thread where it happens: an acquisition's
 *       observation starts on the caller's thread, a hold's ends with its last release or loss;</li>
 *   <li>the registered {@link LockListener}s, in the order things happened, on a thread of the
 *       client's own: never on Lettuce's event loop, where a listener that waits for Redis (or is
 *       merely slow) would stall every command of the client. A listener that throws anything,
 *       errors included, is logged and does not stop the others or the engine.</li>
 * </ul>
 *
 * <p>Results the caller sees ({@code lock()} returning, a future completing) wait for the events
 * before them to be delivered ({@link #afterDelivery}), so a metric is up to date when the call
 * returns; a listener that itself waits for a lock operation of the same client holds that wait
 * up by at most {@value #DELIVERY_BOUND_MILLIS} ms, never forever.
 */
public final class LockEvents implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(LockEvents.class.getName());
    private static final CompletableFuture<Void> NOTHING_PENDING = CompletableFuture.completedFuture(null);
    /**
     * Longest a result waits for the delivery of the events before it: a slow listener may leave
     * a metric behind for a moment, but never holds a lock call up for long.
     */
    private static final long DELIVERY_BOUND_MILLIS = 1_000;
    /** Set on the dispatcher thread: what a listener does there never waits for itself. */
    private static final ThreadLocal<Boolean> DELIVERING = ThreadLocal.withInitial(() -> false);

    private final List<LockListener> listeners = new CopyOnWriteArrayList<>();
    /**
     * Those of the listeners that implement {@link LockListener#onRenewed}. The watchdog renews
     * every held lock each round, so a renewal event is built only when one of them is there: a
     * client holding 20,000 locks would otherwise build 20,000 events a round that nobody reads.
     */
    private final List<LockListener> renewalListeners = new CopyOnWriteArrayList<>();
    private final ExecutorService dispatcher;
    /** The lock type every event reports, or {@code null} for each lock's own kind. */
    private final @Nullable String reportedType;
    private final LockObservations observations;
    /** Completes when the last event handed to the dispatcher was delivered (and so every earlier one). */
    private final AtomicReference<CompletableFuture<Void>> lastDelivery = new AtomicReference<>(NOTHING_PENDING);

    /**
     * @param dispatcher   one thread listeners run on, in order; shut down by {@link #close()}
     * @param reportedType the lock type every event and observation reports, or {@code null} for
     *                     each lock's own kind
     * @param observations where acquisitions and holds are observed
     */
    public LockEvents(ExecutorService dispatcher, @Nullable String reportedType, LockObservations observations) {
        this.dispatcher = dispatcher;
        this.reportedType = reportedType;
        this.observations = observations;
    }

    /** @param listener added at the end */
    public void add(LockListener listener) {
        listeners.add(listener);
        if (listensToRenewals(listener)) {
            renewalListeners.add(listener);
        }
    }

    /** @param listener removed if present */
    public void remove(LockListener listener) {
        listeners.remove(listener);
        renewalListeners.remove(listener);
    }

    /** @return whether the listener's class implements {@code onRenewed} (a proxy's always does) */
    private static boolean listensToRenewals(LockListener listener) {
        try {
            return listener.getClass().getMethod("onRenewed", LockEvent.class).getDeclaringClass() != LockListener.class;
        } catch (NoSuchMethodException e) {
            return true;  // cannot happen for a LockListener; deliver rather than guess
        }
    }

    /**
     * @return completes when every event fired so far was delivered (at once when there is none or
     *         when called by a listener, and after {@value #DELIVERY_BOUND_MILLIS} ms at the latest)
     */
    CompletableFuture<Void> delivered() {
        CompletableFuture<Void> last = Objects.requireNonNull(lastDelivery.get());
        return last.isDone() || DELIVERING.get() ? NOTHING_PENDING
                : last.copy().completeOnTimeout(null, DELIVERY_BOUND_MILLIS, TimeUnit.MILLISECONDS);
    }

    /**
     * @param result a result for the caller
     * @param <T>    its type
     * @return completes as {@code result} does, once the events fired before {@code result}
     *         completed were delivered (see {@link #delivered()})
     */
    <T> CompletableFuture<T> afterDelivery(CompletableFuture<T> result) {
        CompletableFuture<T> reported = new CompletableFuture<>();
        result.whenComplete((value, error) -> delivered().thenRun(() -> {
            if (error != null) {
                reported.completeExceptionally(error);
            } else {
                reported.complete(value);
            }
        }));
        return reported;
    }

    /** Delivers the events already fired, then stops the dispatcher thread. */
    @Override
    public void close() {
        dispatcher.shutdown();
    }

    /**
     * An acquisition starts: called on the caller's thread.
     *
     * @return its observation, which the acquisition ends
     */
    LockObservations.AcquisitionObservation acquisitionStarted(LockId id, LockProtocol protocol) {
        return observations.acquisitionStarted(id, type(protocol));
    }

    void waiting(LockId id, LockProtocol protocol, String holderId) {
        fire(LockListener::onWaiting, () -> new LockEvent(id.name(), id.group(), type(protocol), holderId, 0,
                Duration.ZERO, true, null, null));
    }

    void acquired(Hold hold, long startNanos, boolean waited) {
        fire(LockListener::onAcquired, () -> event(hold, hold.count(), since(startNanos), waited, null));
    }

    void acquireFailed(LockId id, LockProtocol protocol, String holderId, long startNanos, boolean waited,
                       LockEvent.Failure failure, @Nullable Throwable cause) {
        fire(LockListener::onAcquireFailed, () -> new LockEvent(id.name(), id.group(), type(protocol), holderId, 0,
                since(startNanos), waited, failure, cause));
    }

    /** @param remaining the holder's holds left; 0 ends the hold's observation */
    void released(Hold hold, int remaining) {
        if (remaining == 0) {
            hold.observationEnded(false);
        }
        fire(LockListener::onReleased, () -> event(hold, remaining,
                remaining == 0 ? since(hold.acquiredNanos()) : Duration.ZERO, false, null));
    }

    /** @param holds renewed by one watchdog call: delivered in one go, not one hand-over per hold */
    void renewed(List<Hold> holds) {
        fireAll(renewalListeners, LockListener::onRenewed, () -> holds.stream()
                .map(hold -> event(hold, hold.count(), Duration.ZERO, false, null)).toList());
    }

    void renewalFailed(Hold hold, Throwable cause) {
        hold.observationRenewalFailed(cause);
        fire(LockListener::onRenewalFailed, () -> event(hold, hold.count(), Duration.ZERO, false, cause));
    }

    void renewalLost(Hold hold) {
        fire(LockListener::onRenewalLost, () -> event(hold, hold.count(), Duration.ZERO, false, null));
    }

    void lost(Hold hold) {
        hold.observationEnded(true);
        fire(LockListener::onLost, () -> event(hold, 0, Duration.ZERO, false, null));
    }

    private LockEvent event(Hold hold, int count, Duration duration, boolean waited, @Nullable Throwable cause) {
        return new LockEvent(hold.lockName(), hold.id().group(), type(hold.protocol()), hold.holderId(), count,
                duration, waited, null, cause);
    }

    private String type(LockProtocol protocol) {
        return reportedType != null ? reportedType : protocol.type();
    }

    private static Duration since(long startNanos) {
        return Duration.ofNanos(System.nanoTime() - startNanos);
    }

    /**
     * Builds the event now (it describes this moment) and only when somebody listens: most
     * acquisitions are on the hot path. Delivers it on the dispatcher thread, or here once the
     * client is closed.
     */
    private void fire(BiConsumer<LockListener, LockEvent> method, Supplier<LockEvent> event) {
        fireAll(listeners, method, () -> List.of(event.get()));
    }

    /** {@link #fire} for several events at once, to some of the listeners, delivered in order by one task. */
    private void fireAll(List<LockListener> listeners, BiConsumer<LockListener, LockEvent> method,
                         Supplier<List<LockEvent>> events) {
        if (listeners.isEmpty()) {
            return;
        }
        List<LockEvent> built = events.get();
        CompletableFuture<Void> delivery = new CompletableFuture<>();
        Runnable deliver = () -> {
            DELIVERING.set(true);
            for (LockEvent event : built) {
                for (LockListener listener : listeners) {
                    try {
                        method.accept(listener, event);
                    } catch (Throwable e) {
                        // Errors too (an AssertionError in a test listener, a Kotlin listener's checked
                        // exception): the engine's step that fired the event must still complete.
                        LOG.log(Level.WARNING, "Lock listener " + listener + " failed on " + event, e);
                    }
                }
            }
            DELIVERING.set(false);
            delivery.complete(null);
        };
        boolean queued;
        synchronized (lastDelivery) {  // queued in the order lastDelivery records (no I/O inside)
            lastDelivery.set(delivery);
            try {
                dispatcher.execute(deliver);
                queued = true;
            } catch (RejectedExecutionException closed) {
                queued = false;
            }
        }
        if (!queued) {
            deliver.run();
        }
    }
}

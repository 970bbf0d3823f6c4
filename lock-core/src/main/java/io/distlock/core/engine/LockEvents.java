package io.distlock.core.engine;

import io.distlock.core.LockEvent;
import io.distlock.core.LockListener;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * Hands engine events to the registered {@link LockListener}s. A listener that throws is logged
 * and does not stop the others or the engine.
 */
public final class LockEvents {

    private static final System.Logger LOG = System.getLogger(LockEvents.class.getName());

    private final List<LockListener> listeners = new CopyOnWriteArrayList<>();

    /** @param listener added at the end */
    public void add(LockListener listener) {
        listeners.add(listener);
    }

    /** @param listener removed if present */
    public void remove(LockListener listener) {
        listeners.remove(listener);
    }

    void waiting(LockId id, String type, String holderId) {
        fire(LockListener::onWaiting, () -> new LockEvent(id.name(), id.group(), type, holderId, 0, Duration.ZERO, true,
                null, null));
    }

    void acquired(Hold hold, long startNanos, boolean waited) {
        fire(LockListener::onAcquired, () -> event(hold, hold.count(), since(startNanos), waited, null));
    }

    void acquireFailed(LockId id, String type, String holderId, long startNanos, boolean waited,
                       LockEvent.Failure failure, Throwable cause) {
        fire(LockListener::onAcquireFailed, () -> new LockEvent(id.name(), id.group(), type, holderId, 0,
                since(startNanos), waited, failure, cause));
    }

    void released(Hold hold, int remaining) {
        fire(LockListener::onReleased, () -> event(hold, remaining,
                remaining == 0 ? since(hold.acquiredNanos()) : Duration.ZERO, false, null));
    }

    void renewed(Hold hold) {
        fire(LockListener::onRenewed, () -> event(hold, hold.count(), Duration.ZERO, false, null));
    }

    void renewalFailed(Hold hold, Throwable cause) {
        fire(LockListener::onRenewalFailed, () -> event(hold, hold.count(), Duration.ZERO, false, cause));
    }

    void renewalLost(Hold hold) {
        fire(LockListener::onRenewalLost, () -> event(hold, hold.count(), Duration.ZERO, false, null));
    }

    void lost(Hold hold) {
        fire(LockListener::onLost, () -> event(hold, 0, Duration.ZERO, false, null));
    }

    private static LockEvent event(Hold hold, int count, Duration duration, boolean waited, Throwable cause) {
        return new LockEvent(hold.lockName(), hold.id().group(), hold.protocol().type(), hold.holderId(), count,
                duration, waited, null, cause);
    }

    private static Duration since(long startNanos) {
        return Duration.ofNanos(System.nanoTime() - startNanos);
    }

    /** Builds the event only when somebody listens: most acquisitions are on the hot path. */
    private void fire(BiConsumer<LockListener, LockEvent> method, Supplier<LockEvent> events) {
        if (listeners.isEmpty()) {
            return;
        }
        LockEvent event = events.get();
        for (LockListener listener : listeners) {
            try {
                method.accept(listener, event);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "Lock listener " + listener + " failed on " + event, e);
            }
        }
    }
}

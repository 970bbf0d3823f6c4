package io.distlock.core.observation;

import io.distlock.core.LockEvent;
import io.distlock.core.LockLostException;
import io.distlock.core.engine.LockId;
import io.distlock.core.engine.LockObservations;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Observes the engine's acquisitions and holds with Micrometer:
 * <ul>
 *   <li>{@code distlock.acquire}: from the start of an acquisition, on the caller's thread and
 *       under the caller's current observation, to its outcome ({@code result} = acquired |
 *       timeout | interrupted | error; a Redis failure is the observation's error);</li>
 *   <li>{@code distlock.held}: from a first hold to its last release, under the same parent as the
 *       acquisition that began it. A lost lease ends it with a {@link LockLostException} as its
 *       error; each failed renewal is an event ({@value #RENEWAL_FAILED}) on it.</li>
 * </ul>
 * Observations are started on the caller's thread and stopped wherever the outcome is known,
 * often a Redis I/O thread; no scope is opened there.
 */
public final class MicrometerLockObservations implements LockObservations {

    /** The name of the event a failed renewal adds to the hold's observation. */
    public static final String RENEWAL_FAILED = "renewal.failed";

    private final ObservationRegistry registry;

    private MicrometerLockObservations(ObservationRegistry registry) {
        this.registry = registry;
    }

    /**
     * @param registry the registry, or {@code null}
     * @return observations in that registry; {@link LockObservations#NONE} for none or the no-op one
     */
    public static LockObservations of(ObservationRegistry registry) {
        return registry == null || registry.isNoop() ? NONE : new MicrometerLockObservations(registry);
    }

    @Override
    public AcquisitionObservation acquisitionStarted(LockId id, String type) {
        Observation parent = registry.getCurrentObservation();
        Observation acquire = Observation.createNotStarted(null, DefaultLockObservationConvention.ACQUIRE,
                () -> new LockObservationContext(LockObservationContext.Kind.ACQUIRE, id.name(), id.group(), type),
                registry).start();
        return new Acquisition(id, type, parent, acquire);
    }

    private final class Acquisition implements AcquisitionObservation {

        private final LockId id;
        private final String type;
        private final Observation parent;
        private final Observation acquire;

        Acquisition(LockId id, String type, Observation parent, Observation acquire) {
            this.id = id;
            this.type = type;
            this.parent = parent;
            this.acquire = acquire;
        }

        @Override
        public HoldObservation holdStarted() {
            Observation held = Observation.createNotStarted(null, DefaultLockObservationConvention.HELD,
                    () -> new LockObservationContext(LockObservationContext.Kind.HELD, id.name(), id.group(), type),
                    registry);
            // Started on whichever thread got the lock: its parent is the caller's, not that thread's.
            held.parentObservation(parent);
            return new Held(id, held.start());
        }

        @Override
        public void acquired() {
            end("acquired", null);
        }

        @Override
        public void failed(LockEvent.Failure failure, Throwable cause) {
            end(failure.name().toLowerCase(Locale.ROOT), cause);
        }

        private void end(String result, Throwable cause) {
            if (acquire.getContext() instanceof LockObservationContext context) {
                context.setResult(result);
            }
            if (cause != null) {
                acquire.error(cause);
            }
            acquire.stop();
        }
    }

    private static final class Held implements HoldObservation {

        private final LockId id;
        private final Observation held;
        private final AtomicBoolean ended = new AtomicBoolean();

        Held(LockId id, Observation held) {
            this.id = id;
            this.held = held;
        }

        @Override
        public void renewalFailed(Throwable cause) {
            if (!ended.get()) {
                held.event(Observation.Event.of(RENEWAL_FAILED, "Lease renewal failed: " + cause));
            }
        }

        @Override
        public void ended(boolean lost) {
            if (!ended.compareAndSet(false, true)) {
                return;
            }
            if (lost) {
                held.error(new LockLostException(id.name(), "The lease of lock '" + id.name()
                        + "' was lost while held (it expired or was deleted)"));
            }
            held.stop();
        }
    }
}

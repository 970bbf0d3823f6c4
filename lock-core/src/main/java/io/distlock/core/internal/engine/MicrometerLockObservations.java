package io.distlock.core.internal.engine;

import io.distlock.core.LockEvent;
import io.distlock.core.LockLostException;
import io.distlock.core.observation.DefaultLockObservationConvention;
import io.distlock.core.observation.LockObservationContext;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Observes the engine's acquisitions and holds with Micrometer:
 * <ul>
 *   <li>{@code distlock.acquire}: from the start of an acquisition, on the caller's thread and
 *       under the caller's current observation, to its outcome ({@code result} = acquired |
 *       timeout | busy | interrupted | error; a Redis failure is the observation's error);</li>
 *   <li>{@code distlock.held}: from a first hold to its last release, under the same parent as the
 *       acquisition that began it. A lost lease ends it with a {@link LockLostException} as its
 *       error; each failed renewal is an event
 *       ({@value LockObservationContext#RENEWAL_FAILED}) on it.</li>
 * </ul>
 * Observations are started on the caller's thread and stopped wherever the outcome is known,
 * often a Redis I/O thread, so handlers must be quick; no scope is opened there. A handler that
 * throws is logged and otherwise ignored: the lock's own step, which reported to it, goes on, and
 * an observation is stopped even when reporting its error failed. A start that fails half-way is
 * stopped at once, as far as Micrometer lets it: a handler that throws on stop keeps the handlers
 * after it from stopping.
 */
public final class MicrometerLockObservations implements LockObservations {

    private static final System.Logger LOG = System.getLogger(MicrometerLockObservations.class.getName());
    private static final AtomicBoolean WARNED = new AtomicBoolean();

    private final ObservationRegistry registry;

    private MicrometerLockObservations(ObservationRegistry registry) {
        this.registry = registry;
    }

    /**
     * @param registry the registry, or {@code null}
     * @return observations in that registry (handlers added to it later count too);
     *         {@link LockObservations#NONE} for none or {@link ObservationRegistry#NOOP}
     */
    public static LockObservations of(@Nullable ObservationRegistry registry) {
        return registry == null || registry == ObservationRegistry.NOOP ? NONE
                : new MicrometerLockObservations(registry);
    }

    @Override
    public AcquisitionObservation acquisitionStarted(LockId id, String type) {
        Observation parent;
        try {
            parent = registry.getCurrentObservation();
        } catch (Throwable e) {
            handlerFailed("find the caller's observation for", id, e);
            parent = null;
        }
        Observation acquire = start(LockObservationContext.Kind.ACQUIRE, id, type, parent);
        return acquire == null ? AcquisitionObservation.NONE : new Acquisition(id, type, parent, acquire);
    }

    /**
     * @param parent the observation it belongs under, also when started on another thread
     * @return the observation, started; {@code null} if it could not be
     */
    private @Nullable Observation start(LockObservationContext.Kind kind, LockId id, String type,
                                        @Nullable Observation parent) {
        Observation observation;
        try {
            observation = Observation.createNotStarted(null, DefaultLockObservationConvention.of(kind),
                    () -> new LockObservationContext(kind, id.name(), id.group(), type), registry);
            observation.parentObservation(parent);
        } catch (Throwable e) {
            handlerFailed("create the " + kind.observationName() + " observation of", id, e);
            return null;
        }
        try {
            return observation.start();
        } catch (Throwable e) {
            handlerFailed("start the " + kind.observationName() + " observation of", id, e);
            // The handlers that did start (a long task timer, a span) must not run on forever.
            guarded("stop the " + kind.observationName() + " observation of", id, observation::stop);
            return null;
        }
    }

    /**
     * Stops an observation, with its error if any: stopped even if reporting the error fails.
     *
     * @param describe sets what the observation says about its end, before it stops
     */
    private static void stop(Observation observation, LockId id, Consumer<Observation> describe) {
        String what = observation.getContext().getName();
        guarded("describe the end of the " + what + " observation of", id, () -> describe.accept(observation));
        guarded("stop the " + what + " observation of", id, observation::stop);
    }

    /** Runs one step of an observation; a handler that throws is logged, and the engine goes on. */
    private static void guarded(String step, LockId id, Runnable action) {
        try {
            action.run();
        } catch (Throwable e) {
            handlerFailed(step, id, e);
        }
    }

    /** Warns of the first failure with its stack trace; later ones, which may come per call, at debug level. */
    private static void handlerFailed(String step, LockId id, Throwable e) {
        boolean first = WARNED.compareAndSet(false, true);
        LOG.log(first ? System.Logger.Level.WARNING : System.Logger.Level.DEBUG, "An observation handler failed to "
                + step + " lock '" + id.name() + "'; the lock is not affected"
                + (first ? " (further failures are logged at debug level)" : ""), e);
    }

    private final class Acquisition implements AcquisitionObservation {

        private final LockId id;
        private final String type;
        private final @Nullable Observation parent;
        private final Observation acquire;

        Acquisition(LockId id, String type, @Nullable Observation parent, Observation acquire) {
            this.id = id;
            this.type = type;
            this.parent = parent;
            this.acquire = acquire;
        }

        @Override
        public HoldObservation holdStarted() {
            // Started on whichever thread got the lock: its parent is the caller's, not that thread's.
            Observation held = start(LockObservationContext.Kind.HELD, id, type, parent);
            return held == null ? HoldObservation.NONE : new Held(id, held);
        }

        @Override
        public void acquired() {
            end("acquired", null);
        }

        @Override
        public void failed(LockEvent.Failure failure, @Nullable Throwable cause) {
            end(failure.name().toLowerCase(Locale.ROOT), cause);
        }

        private void end(String result, @Nullable Throwable cause) {
            stop(acquire, id, observation -> {
                if (observation.getContext() instanceof LockObservationContext context) {
                    context.setResult(result);
                }
                if (cause != null) {
                    observation.error(cause);
                }
            });
        }
    }

    private static final class Held implements HoldObservation {

        private final LockId id;
        private final Observation held;

        Held(LockId id, Observation held) {
            this.id = id;
            this.held = held;
        }

        @Override
        public void renewalFailed(Throwable cause) {
            guarded("report a failed renewal of", id,
                    () -> held.event(Observation.Event.of(LockObservationContext.RENEWAL_FAILED, "Lease renewal failed: " + cause)));
        }

        @Override
        public void leaseAtRisk(LockLostException cause) {
            guarded("report the lease at risk of", id, () -> held.error(cause));
        }

        @Override
        public void ended(boolean lost) {
            stop(held, id, observation -> {
                if (lost) {
                    observation.error(new LockLostException(id.name(), "The lease of lock '" + id.name()
                            + "' was lost while held (it expired or was deleted)"));
                }
            });
        }
    }
}

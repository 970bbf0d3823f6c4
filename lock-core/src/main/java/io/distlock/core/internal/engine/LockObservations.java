package io.distlock.core.internal.engine;

import io.distlock.core.LockEvent;
import io.distlock.core.LockLostException;
import org.jspecify.annotations.Nullable;

/**
 * Where the engine reports each acquisition and each hold while it lasts, for tracing and timing:
 * Micrometer Observations ({@link MicrometerLockObservations}) when
 * the client was given a registry. Unlike {@link io.distlock.core.LockListener}s, which hear of
 * things after the fact on the client's own thread, these are called as things happen: an
 * acquisition is reported on the caller's thread as it starts, so its observation is a child of
 * the caller's. Implementations must be quick, must not block (many calls come on Redis I/O
 * threads) and must not throw: the engine's step that reports goes on regardless.
 */
public interface LockObservations {

    /** Observes nothing. */
    LockObservations NONE = (id, type) -> AcquisitionObservation.NONE;

    /**
     * An acquisition starts; called on the caller's thread.
     *
     * @param id   the lock
     * @param type the lock type reported
     * @return the acquisition's observation, started
     */
    AcquisitionObservation acquisitionStarted(LockId id, String type);

    /** One acquisition: exactly one of {@link #acquired} and {@link #failed} ends it. */
    interface AcquisitionObservation {

        /** Observes nothing. */
        AcquisitionObservation NONE = new AcquisitionObservation() {
            @Override
            public HoldObservation holdStarted() {
                return HoldObservation.NONE;
            }

            @Override
            public void acquired() {
            }

            @Override
            public void failed(LockEvent.Failure failure, @Nullable Throwable cause) {
            }
        };

        /**
         * The acquisition began a hold (a first hold, not a re-entry): its observation starts
         * now, under the caller's observation the acquisition started under.
         *
         * @return the hold's observation, started
         */
        HoldObservation holdStarted();

        /** The acquisition got the lock. */
        void acquired();

        /**
         * The acquisition gave up.
         *
         * @param failure why
         * @param cause   the error behind an {@link LockEvent.Failure#ERROR}, or {@code null}
         */
        void failed(LockEvent.Failure failure, @Nullable Throwable cause);
    }

    /** One hold, from first hold to last release or loss. */
    interface HoldObservation {

        /** Observes nothing. */
        HoldObservation NONE = new HoldObservation() {
            @Override
            public void renewalFailed(Throwable cause) {
            }

            @Override
            public void leaseAtRisk(LockLostException cause) {
            }

            @Override
            public void ended(boolean lost) {
            }
        };

        /**
         * The watchdog could not renew the lease this time (it keeps trying).
         *
         * @param cause the Redis failure, or a timeout
         */
        void renewalFailed(Throwable cause);

        /**
         * The holder was told its lease could end before anything confirms it again
         * ({@link LossSignals}): the hold ends with that error, however it ends.
         *
         * @param cause what the holder was told
         */
        void leaseAtRisk(LockLostException cause);

        /**
         * The hold ended; called once.
         *
         * @param lost whether its lease was lost rather than released
         */
        void ended(boolean lost);
    }
}

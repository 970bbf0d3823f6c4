package io.distlock.core.internal.engine;

import io.distlock.core.LockLostException;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A hold's observation ends once, the way the hold ended, even when the hold ends before its
 * observation is handed to it: an overlapping acquisition of the same holder can find the hold
 * lost, or the client can be closed, between the hold being registered and its observation set.
 * Pure state logic of {@link Hold}: no Redis needed.
 */
class HoldObservationTest {

    private final Hold hold = new Hold(LockId.of("order:1"), LockKeys.of("distlock:", "order:1"), "holder", null,
            true, 30_000, System.nanoTime(), "h1", 0, 0);
    private final Recording observation = new Recording();

    @Test
    void aHoldThatEndsEndsItsObservationOnce() {
        hold.observedBy(observation);
        hold.observationEnded(true);
        hold.observationEnded(false);

        assertThat(observation.ends).containsExactly(true);
    }

    @Test
    void anObservationThatStartsAfterTheHoldEndedEndsAtOnceTheSameWay() {
        hold.observationEnded(true);
        hold.observedBy(observation);

        assertThat(observation.ends).containsExactly(true);
    }

    @Test
    void aFailedRenewalIsReportedOnlyToAStartedObservation() {
        hold.observationRenewalFailed(new IllegalStateException("before"));
        hold.observedBy(observation);
        hold.observationRenewalFailed(new IllegalStateException("after"));

        assertThat(observation.renewalFailures).containsExactly("after");
    }

    /** Records what the hold reports; ends are recorded every time, to count them. */
    private static final class Recording implements LockObservations.HoldObservation {

        final List<Boolean> ends = new CopyOnWriteArrayList<>();
        final List<String> renewalFailures = new CopyOnWriteArrayList<>();

        @Override
        public void renewalFailed(Throwable cause) {
            renewalFailures.add(cause.getMessage());
        }

        @Override
        public void leaseAtRisk(LockLostException cause) {
            renewalFailures.add(cause.getMessage());
        }

        @Override
        public void ended(boolean lost) {
            ends.add(lost);
        }
    }
}

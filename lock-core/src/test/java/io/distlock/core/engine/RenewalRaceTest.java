package io.distlock.core.engine;

import io.distlock.core.watchdog.LeaseWatchdog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The watchdog renews a hold by one of its hold ids. If the holder releases exactly that one
 * while the renewal is on its way (an abandoned acquisition given back, one of two overlapping
 * acquisitions released), Redis answers "not held" for it: that is no lost lease, and the holder's
 * other holds must go on being renewed. Pure scheduling logic, so the protocol is a stand-in that
 * answers what Redis would.
 */
@Timeout(30)
class RenewalRaceTest {

    /** A protocol whose renewals the test answers. */
    private static final class AnsweredByTest implements LockProtocol {

        final LinkedBlockingQueue<CompletableFuture<List<Long>>> renewals = new LinkedBlockingQueue<>();
        final LinkedBlockingQueue<List<String>> renewedBy = new LinkedBlockingQueue<>();

        @Override
        public String type() {
            return "reentrant";
        }

        @Override
        public CompletableFuture<List<Long>> renew(List<Hold> holds, List<String> holdIds, long leaseMillis) {
            CompletableFuture<List<Long>> answer = new CompletableFuture<>();
            renewedBy.add(List.copyOf(holdIds));
            renewals.add(answer);
            return answer;
        }

        @Override
        public CompletableFuture<Attempt> tryAcquire(LockKeys keys, String holderId, long leaseMillis, String holdId,
                                                     boolean reentry) {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletableFuture<Long> release(LockKeys keys, String holderId, String holdId) {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletableFuture<Long> forceUnlock(LockKeys keys) {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletableFuture<Boolean> setLease(LockKeys keys, HoldRef hold, long leaseMillis, boolean exact) {
            throw new UnsupportedOperationException();
        }
    }

    @Test
    void aRenewalOfAHoldReleasedOnTheWayIsNoLostLease() throws Exception {
        AnsweredByTest protocol = new AnsweredByTest();
        AtomicInteger lost = new AtomicInteger();
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
        try (LeaseWatchdog watchdog = new LeaseWatchdog(scheduler, 3_000, 500, key -> 0,
                new LeaseWatchdog.RenewalOutcomes() {
                    @Override
                    public void renewed(Hold hold) {
                    }

                    @Override
                    public void lost(Hold hold) {
                        lost.incrementAndGet();
                    }

                    @Override
                    public void failed(Hold hold, Throwable cause) {
                    }
                })) {
            Hold hold = new Hold(LockId.of("race"), LockKeys.of("distlock:", "race"), "h", protocol, true, 3_000,
                    "first", 0, 0);
            hold.add("second");
            watchdog.watch(hold);

            CompletableFuture<List<Long>> renewal = protocol.renewals.poll(5, TimeUnit.SECONDS);
            assertThat(protocol.renewedBy.poll()).containsExactly("first");
            Hold.Release released = hold.takeForRelease("first");  // the holder gives "first" back
            hold.releaseEnded();
            assertThat(released.last()).isFalse();
            renewal.complete(List.of(0L));  // what Redis answers: "first" is gone

            assertThat(lost).as("no lease was lost").hasValue(0);
            assertThat(watchdog.size()).as("the hold is still renewed").isEqualTo(1);
            protocol.renewals.poll(5, TimeUnit.SECONDS).complete(List.of(1L));
            assertThat(protocol.renewedBy.poll()).as("by a hold it still has").containsExactly("second");
        } finally {
            scheduler.shutdownNow();
        }
    }
}

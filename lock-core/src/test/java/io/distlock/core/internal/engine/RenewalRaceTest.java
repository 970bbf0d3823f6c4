package io.distlock.core.internal.engine;

import io.distlock.core.internal.watchdog.LeaseWatchdog;
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
        public CompletableFuture<ReleaseReply> release(LockKeys keys, String holderId, String holdId) {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletableFuture<ReleaseReply> releaseInOrder(LockKeys keys, String holderId, String holdId) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long answerKeptMillis() {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletableFuture<Long> forceUnlock(LockKeys keys, String callId) {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletableFuture<Boolean> setLease(LockKeys keys, HoldRef hold, long leaseMillis, boolean exact) {
            throw new UnsupportedOperationException();
        }

        @Override
        public CompletableFuture<Long> leaseLeft(LockKeys keys, HoldRef hold) {
            throw new UnsupportedOperationException();
        }
    }

    /** Counts lost leases; ignores the other outcomes. */
    private static LeaseWatchdog.RenewalOutcomes countingLost(AtomicInteger lost) {
        return new LeaseWatchdog.RenewalOutcomes() {
            @Override
            public void renewed(List<Hold> holds) {
            }

            @Override
            public void lost(Hold hold) {
                lost.incrementAndGet();
            }

            @Override
            public void failed(Hold hold, Throwable cause) {
            }
        };
    }

    private static Hold watchdogHold(AnsweredByTest protocol, long leaseMillis) {
        return new Hold(LockId.of("race"), LockKeys.of("distlock:", "race"), "h", protocol, true, leaseMillis,
                System.nanoTime(), "first", 0, 0);
    }

    @Test
    void aRenewalOfAHoldReleasedOnTheWayIsNoLostLease() throws Exception {
        AnsweredByTest protocol = new AnsweredByTest();
        AtomicInteger lost = new AtomicInteger();
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
        try (LeaseWatchdog watchdog = new LeaseWatchdog(scheduler, 3_000, 500, key -> 0, countingLost(lost))) {
            Hold hold = watchdogHold(protocol, 3_000);
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

    /**
     * Renewals that get no answer: each is sent again once its deadline, well inside the round,
     * has passed, and the next round sends the hold again, so a lease gets four tries before it
     * could end. (With a deadline of a whole round it got two: the retry was still in flight when
     * the next round came, and that round skipped it.)
     */
    @Test
    void aLeaseWhoseRenewalsGetNoAnswerGetsFourTriesBeforeItCouldEnd() throws Exception {
        AnsweredByTest protocol = new AnsweredByTest();
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
        long lease = 12_000;  // rounds every 4 s; calls have 1.6 s: tries at 4, 5.6, 8 and 9.6 s
        try (LeaseWatchdog watchdog = new LeaseWatchdog(scheduler, lease, 500, key -> 0,
                countingLost(new AtomicInteger()))) {
            long watchedAt = System.nanoTime();
            watchdog.watch(watchdogHold(protocol, lease));

            for (int tries = 1; tries <= 4; tries++) {
                long leftMillis = lease - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - watchedAt);
                assertThat(protocol.renewals.poll(leftMillis, TimeUnit.MILLISECONDS))
                        .as("try %d before the lease could end", tries).isNotNull();
            }
        } finally {
            scheduler.shutdownNow();
        }
    }
}

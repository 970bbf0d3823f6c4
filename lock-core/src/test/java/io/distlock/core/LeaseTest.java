package io.distlock.core;

import io.distlock.test.RedisExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.distlock.test.Polling.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(60)
class LeaseTest {

    private static final Duration WATCHDOG = Duration.ofSeconds(2);

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    @RegisterExtension
    final TestClients clients = new TestClients();

    @Test
    void explicitLeaseExpiresAndTheLateUnlockReportsTheLoss() throws Exception {
        RecordingListener events = new RecordingListener();
        LockClient holder = clients.open(redis.server(), b -> b.listener(events));
        RedisLock lock = holder.getLock("lease");
        assertThat(lock.tryLock(0, 400, TimeUnit.MILLISECONDS)).isTrue();
        assertThat(lock.remainingTimeToLive()).as("the 400 ms lease, or -2 once it ended").isLessThanOrEqualTo(400L)
                .isNotEqualTo(-1L);
        assertThat(holder.watchdogHoldCount()).isZero();

        RedisLock other = clients.open(redis.server()).getLock("lease");
        long start = System.nanoTime();
        assertThat(other.tryLock(10, TimeUnit.SECONDS)).isTrue();
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start))
                .as("woken when the lease ended, not at the end of the wait").isLessThan(5_000);

        assertThatThrownBy(lock::unlock)
                .isInstanceOf(LockLostException.class)
                .hasMessageContaining("lease");
        assertThat(events.lost).singleElement().satisfies(e -> assertThat(e.lockName()).isEqualTo("lease"));
        assertThat(events.renewalLost).as("an explicit lease is not the watchdog's").isEmpty();
        assertThat(other.isHeldByCurrentThread()).isTrue();
        other.unlock();
    }

    @Test
    void aLeaseShorterThanAMillisecondIsALeaseNotTheWatchdog() throws Exception {
        LockClient client = clients.open(redis.server());
        RedisLock lock = client.getLock("sub-millisecond");
        assertThat(lock.tryLock(0, 500, TimeUnit.MICROSECONDS)).isTrue();
        assertThat(client.watchdogHoldCount()).as("not renewed: a positive lease, however short").isZero();
        awaitTrue("the lease of about a millisecond ended", Duration.ofSeconds(5),
                () -> lock.remainingTimeToLive() == -2L);
        assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class);
    }

    @Test
    void anExplicitLeaseThatRanOutIsReportedReleasedOnceForgotten() throws Exception {
        RecordingListener events = new RecordingListener();
        Duration forgetPace = Duration.ofMillis(600);  // no watchdog lease here: it only paces forgetting ended holds
        LockClient client = clients.open(redis.server(), b -> b.watchdogTimeout(forgetPace).listener(events));
        RedisLock lock = client.getLock("self-expiring");
        assertThat(lock.tryLock(0, 200, TimeUnit.MILLISECONDS)).isTrue();

        awaitTrue("the ended hold is reported released", forgetPace.multipliedBy(10), () -> !events.released.isEmpty());
        assertThat(events.released).singleElement().satisfies(e -> assertThat(e.holdCount()).isZero());
        assertThat(events.lost).isEmpty();
        assertThatThrownBy(lock::unlock).isInstanceOf(IllegalMonitorStateException.class)
                .isNotInstanceOf(LockLostException.class);
    }

    @Test
    void watchdogKeepsTheLockWellPastItsTimeoutAndStopsAfterUnlock() {
        RecordingListener events = new RecordingListener();
        LockClient client = clients.open(redis.server(), b -> b.watchdogTimeout(WATCHDOG).listener(events));
        RedisLock lock = client.getLock("watched");
        lock.lock();
        assertThat(client.watchdogHoldCount()).isEqualTo(1);

        long until = System.nanoTime() + WATCHDOG.multipliedBy(2).toNanos();
        awaitTrue("two watchdog timeouts passed with the lock held", WATCHDOG.multipliedBy(6), () -> {
            assertThat(lock.isHeldByCurrentThread()).isTrue();
            assertThat(lock.remainingTimeToLive()).isPositive();
            return System.nanoTime() > until;
        });
        assertThat(events.renewed.size()).isGreaterThanOrEqualTo(4);
        assertThat(events.lost).isEmpty();

        lock.unlock();
        assertThat(client.watchdogHoldCount()).isZero();
        int renewalsAtUnlock = events.renewed.size();
        long later = System.nanoTime() + WATCHDOG.multipliedBy(2).dividedBy(3).toNanos();
        awaitTrue("two renewal intervals passed", WATCHDOG.multipliedBy(3), () -> System.nanoTime() > later);
        assertThat(events.renewed.size()).isLessThanOrEqualTo(renewalsAtUnlock + 1);
        assertThat(lock.isLocked()).isFalse();
    }

    @Test
    void anUnlockOfALeaseTheWatchdogFoundLostThrowsOnceTheLossIsDelivered() throws Exception {
        SlowLossListener slow = new SlowLossListener();
        RecordingListener events = new RecordingListener();
        RedisLock lock = clients.open(redis.server(), b -> b.watchdogTimeout(WATCHDOG).listener(slow).listener(events))
                .getLock("deleted-then-unlocked");
        lock.lock();

        redis.server().command("DEL", "distlock:{deleted-then-unlocked}");
        assertThat(slow.lossArrived.await(WATCHDOG.multipliedBy(3).toMillis(), TimeUnit.MILLISECONDS))
                .as("the watchdog found the loss").isTrue();

        assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class);
        assertThat(events.lost).as("delivered before unlock() threw").hasSize(1);
    }

    @Test
    void watchdogReportsALeaseDeletedBehindItsBack() {
        RecordingListener events = new RecordingListener();
        LockClient client = clients.open(redis.server(), b -> b.watchdogTimeout(WATCHDOG).listener(events));
        RedisLock lock = client.getLock("deleted");
        lock.lock();

        redis.server().command("DEL", "distlock:{deleted}");

        awaitTrue("the watchdog reported the loss", WATCHDOG.multipliedBy(3), () -> !events.lost.isEmpty());
        assertThat(events.renewalLost).singleElement().satisfies(e -> assertThat(e.lockName()).isEqualTo("deleted"));
        assertThat(events.lost).singleElement().satisfies(e -> {
            assertThat(e.lockName()).isEqualTo("deleted");
            assertThat(e.holderId()).startsWith(client.clientId());
        });
        assertThat(client.watchdogHoldCount()).isZero();
        assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class);
        assertThat(events.lost).hasSize(1);
        assertThatThrownBy(lock::unlock).isInstanceOf(IllegalMonitorStateException.class)
                .isNotInstanceOf(LockLostException.class);
    }

    @Test
    void aHandOffFromAHolderThatLostItsLeaseStillServesTheWaiter() throws Exception {
        RecordingListener events = new RecordingListener();
        LockClient client = clients.open(redis.server(), b -> b.listener(events));
        RedisLock lock = client.getLock("lost-hand-off");
        lock.lock();
        CompletableFuture<Boolean> waiterHeldIt = CompletableFuture.supplyAsync(() -> {
            lock.lock();
            boolean held = lock.isHeldByCurrentThread();
            lock.unlock();
            return held;
        });
        awaitTrue("the waiter sleeps", Duration.ofSeconds(5), () -> events.waiting.size() == 1);

        // Deleted without a release message: the waiter sleeps on until it is handed the lock.
        redis.server().command("DEL", "distlock:{lost-hand-off}");

        assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class);
        assertThat(waiterHeldIt.get(5, TimeUnit.SECONDS)).isTrue();
        assertThat(lock.isLocked()).isFalse();
    }

    @Test
    void reenteringWithoutLeaseTimeHandsAnExplicitLeaseToTheWatchdog() {
        LockClient client = clients.open(redis.server(), b -> b.watchdogTimeout(WATCHDOG));
        RedisLock lock = client.getLock("upgraded");
        lock.lock(2, TimeUnit.SECONDS);
        lock.lock();
        assertThat(client.watchdogHoldCount()).isEqualTo(1);

        long until = System.nanoTime() + WATCHDOG.multipliedBy(2).toNanos();
        awaitTrue("the explicit lease and a watchdog timeout passed", WATCHDOG.multipliedBy(6),
                () -> System.nanoTime() > until);

        assertThat(lock.isHeldByCurrentThread()).isTrue();
        lock.unlock();
        lock.unlock();
        assertThat(lock.isLocked()).isFalse();
    }

    @Test
    void reenteringWithAShortLeaseNeverShortensTheHold() throws Exception {
        LockClient client = clients.open(redis.server(), b -> b.watchdogTimeout(WATCHDOG));
        RedisLock lock = client.getLock("not-shortened");
        lock.lock();
        assertThat(lock.tryLock(0, 50, TimeUnit.MILLISECONDS)).isTrue();
        assertThat(lock.remainingTimeToLive()).isGreaterThan(100);
        lock.unlock();
        lock.unlock();
        assertThat(lock.isLocked()).isFalse();
    }

    /** The client knows a lease as long as the longest any re-entry set, as Redis does. */
    @Test
    void reenteringWithALongerLeaseKeepsTheHoldThatLong() throws Exception {
        RecordingListener events = new RecordingListener();
        RedisLock lock = clients.open(redis.server(), b -> b.listener(events)).getLock("lengthened");
        assertThat(lock.tryLock(0, 2, TimeUnit.SECONDS)).isTrue();
        assertThat(lock.tryLock(0, 20, TimeUnit.SECONDS)).isTrue();
        long firstLeaseEnded = System.nanoTime() + Duration.ofMillis(2_500).toNanos();
        awaitTrue("the first lease has ended", Duration.ofSeconds(5), () -> System.nanoTime() > firstLeaseEnded);

        assertThat(lock.tryLock(0, 2, TimeUnit.SECONDS)).isTrue();

        assertThat(events.lost).as("nothing was lost").isEmpty();
        assertThat(lock.getHoldCount()).isEqualTo(3);
        lock.unlock();
        lock.unlock();
        lock.unlock();
        assertThat(lock.isLocked()).isFalse();
    }

    @Test
    void eachUnlockOfALostReentrantHoldThrows() {
        LockClient client = clients.open(redis.server(), b -> b.watchdogTimeout(WATCHDOG));
        RedisLock lock = client.getLock("lost-twice");
        lock.lock();
        lock.lock();
        assertThat(lock.forceUnlock()).isTrue();

        assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class);
        assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class);
        assertThatThrownBy(lock::unlock).isNotInstanceOf(LockLostException.class)
                .isInstanceOf(IllegalMonitorStateException.class);
    }

    /** A lease lost and never unlocked is not remembered forever: after one watchdog timeout it is forgotten. */
    @Test
    void aLostHoldNobodyUnlocksIsForgotten() {
        RecordingListener events = new RecordingListener();
        FencedLock lock = clients.open(redis.server(), b -> b.watchdogTimeout(Duration.ofSeconds(2)).listener(events))
                .getFencedLock("forgotten-hold");
        lock.lock();
        redis.server().command("DEL", "distlock:{forgotten-hold}");
        awaitTrue("the watchdog found the lease lost", Duration.ofSeconds(10), () -> events.lost.size() == 1);

        // getToken() says the lease was lost while the hold is remembered, and nothing more once forgotten.
        awaitTrue("the lost hold is forgotten", Duration.ofSeconds(15), () -> {
            try {
                lock.getToken();
                return false;
            } catch (IllegalMonitorStateException e) {
                return !e.getMessage().contains("lease was lost");
            }
        });
        assertThatThrownBy(lock::unlock).isInstanceOf(IllegalMonitorStateException.class)
                .isNotInstanceOf(LockLostException.class);
    }

    /**
     * An explicit lease that ran out ended the hold, as the caller chose: taking the lock again is
     * a fresh attempt (a self-expiring lock, {@code tryLock(0, lease)} at every run and never
     * unlocked), which fails while another client holds the lock. An {@code unlock()} after the
     * lease ran out, with no new hold since, still reports the loss.
     */
    @Test
    void anExplicitLeaseThatRanOutEndsTheHoldAndTakingTheLockAgainIsAFreshAttempt() throws Exception {
        RecordingListener events = new RecordingListener();
        RedisLock lock = clients.open(redis.server(), b -> b.listener(events)).getLock("self-expiring-tick");
        assertThat(lock.tryLock(0, 200, TimeUnit.MILLISECONDS)).as("the first run").isTrue();
        awaitTrue("the lease ran out", Duration.ofSeconds(5), () -> !lock.isLocked());

        assertThat(lock.tryLock(0, 200, TimeUnit.MILLISECONDS)).as("the next run: a fresh attempt").isTrue();
        assertThat(lock.getHoldCount()).as("a hold of its own").isEqualTo(1);
        awaitTrue("the lease ran out", Duration.ofSeconds(5), () -> !lock.isLocked());
        RedisLock otherInstance = clients.open(redis.server()).getLock("self-expiring-tick");
        assertThat(otherInstance.tryLock(0, 10_000, TimeUnit.MILLISECONDS)).isTrue();
        assertThat(lock.tryLock(0, 200, TimeUnit.MILLISECONDS)).as("a run while another instance holds it").isFalse();
        otherInstance.unlock();
        assertThat(events.lost).as("a lease that ran out as chosen is no loss").isEmpty();

        assertThat(lock.tryLock(0, 200, TimeUnit.MILLISECONDS)).isTrue();
        awaitTrue("the lease ran out", Duration.ofSeconds(5), () -> !lock.isLocked());
        assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class);
        assertThat(events.lost).hasSize(1);
    }

    /**
     * A thread still inside its hold when the explicit lease ran out (work longer than the lease)
     * re-enters it: the re-entry cannot tell that from a self-expiring lock taken again, so it
     * takes a fresh hold, and the inner unlock() releases that one. The outer unlock() must still
     * report the loss, as it would have without the re-entry, not be refused as "not held".
     */
    @Test
    void aNestedReentryAfterTheLeaseRanOutLeavesTheOuterUnlockItsLoss() throws Exception {
        RecordingListener events = new RecordingListener();
        RedisLock lock = clients.open(redis.server(), b -> b.listener(events)).getLock("nested-ran-out");
        lock.lock(300, TimeUnit.MILLISECONDS);
        leaseRanOutByTheClientsClock(lock, System.nanoTime(), 300);

        lock.lock();  // nested, inside the outer hold as far as the thread knows
        assertThat(lock.getHoldCount()).as("a fresh hold").isEqualTo(1);
        lock.unlock();
        assertThat(lock.isLocked()).isFalse();
        assertThat(events.lost).as("the inner unlock released the fresh hold").isEmpty();

        assertThatThrownBy(lock::unlock).as("the outer unlock").isInstanceOf(LockLostException.class)
                .hasMessageContaining("lease");
        assertThat(events.lost).as("reported once, before unlock() threw").singleElement()
                .satisfies(e -> assertThat(e.lockName()).isEqualTo("nested-ran-out"));
        assertThat(events.released).as("only the fresh hold was released").singleElement()
                .satisfies(e -> assertThat(e.holdCount()).isZero());
        assertThatThrownBy(lock::unlock).as("nothing more is owed").isInstanceOf(IllegalMonitorStateException.class)
                .isNotInstanceOf(LockLostException.class);
    }

    /**
     * The same with a nested tryLock() that finds the lock taken by another client meanwhile, and
     * with two holds of the outer lock: each of its unlock() calls reports the loss.
     */
    @Test
    void aFailedNestedTryLockAfterTheLeaseRanOutLeavesEachOuterUnlockItsLoss() throws Exception {
        RecordingListener events = new RecordingListener();
        RedisLock lock = clients.open(redis.server(), b -> b.listener(events)).getLock("nested-ran-out-taken");
        lock.lock(300, TimeUnit.MILLISECONDS);
        lock.lock(300, TimeUnit.MILLISECONDS);
        leaseRanOutByTheClientsClock(lock, System.nanoTime(), 300);
        RedisLock other = clients.open(redis.server()).getLock("nested-ran-out-taken");
        assertThat(other.tryLock(0, 30, TimeUnit.SECONDS)).isTrue();

        assertThat(lock.tryLock(0, 300, TimeUnit.MILLISECONDS)).as("taken by the other client").isFalse();

        assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class);
        assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class);
        assertThatThrownBy(lock::unlock).isInstanceOf(IllegalMonitorStateException.class)
                .isNotInstanceOf(LockLostException.class);
        assertThat(events.lost).as("reported once").hasSize(1);
        assertThat(events.released).isEmpty();
        assertThat(other.isHeldByCurrentThread()).as("the other client's hold is untouched").isTrue();
        other.unlock();
    }

    /**
     * A self-expiring lock taken again at each run and never unlocked: each run is a fresh hold
     * with no exception, and what the engine remembers of the ended holds for unlock() calls that
     * never come is forgotten one watchdog timeout after their lease ended, each reported
     * released once, never lost.
     */
    @Test
    void theEndedHoldsOfASelfExpiringLockAreForgottenAndReportedReleased() throws Exception {
        RecordingListener events = new RecordingListener();
        Duration forgetPace = Duration.ofMillis(600);  // paces forgetting ended holds
        RedisLock lock = clients.open(redis.server(), b -> b.watchdogTimeout(forgetPace).listener(events))
                .getLock("self-expiring-runs");
        for (int run = 0; run < 3; run++) {
            assertThat(lock.tryLock(0, 200, TimeUnit.MILLISECONDS)).as("run " + run).isTrue();
            assertThat(lock.getHoldCount()).as("run " + run + ": a hold of its own").isEqualTo(1);
            leaseRanOutByTheClientsClock(lock, System.nanoTime(), 200);
        }

        awaitTrue("every run's hold is forgotten and reported released", forgetPace.multipliedBy(10),
                () -> events.released.size() == 3);
        assertThat(events.released).allSatisfy(e -> assertThat(e.holdCount()).isZero());
        assertThat(events.lost).as("a lease that ran out as chosen is no loss").isEmpty();
        assertThatThrownBy(lock::unlock).as("forgotten: nothing is owed any more")
                .isInstanceOf(IllegalMonitorStateException.class).isNotInstanceOf(LockLostException.class);
        assertThat(events.lost).isEmpty();
    }

    /**
     * Waits until the lease ended in Redis and by the client's clock, which counts it from
     * Redis's answer: that came before the acquisition returned.
     */
    private static void leaseRanOutByTheClientsClock(RedisLock lock, long returnedNanos, long leaseMillis)
            throws InterruptedException {
        awaitTrue("the lease ran out", Duration.ofSeconds(5), () -> !lock.isLocked());
        long leftNanos = returnedNanos + TimeUnit.MILLISECONDS.toNanos(leaseMillis + 20) - System.nanoTime();
        if (leftNanos > 0) {
            TimeUnit.NANOSECONDS.sleep(leftNanos);
        }
    }

    /**
     * An explicit holder id's acquisitions may overlap, so one that finds the holder's explicit
     * lease ran out cannot end that hold: another acquisition of the holder may still count on it,
     * and its unlock() must report the loss. Every later acquisition of the holder reports it, and
     * none starts a hold of its own on top of the lost one.
     */
    @Test
    void anExplicitHoldersAcquisitionsAfterItsLeaseRanOutReportTheLoss() throws Exception {
        RecordingListener events = new RecordingListener();
        RedisLock lock = clients.open(redis.server(), b -> b.listener(events)).getLock("ran-out-async");
        assertThat(lock.tryLockAsync(0, 300, TimeUnit.MILLISECONDS, "job").get(5, TimeUnit.SECONDS)).isTrue();
        awaitTrue("the lease ran out", Duration.ofSeconds(5), () -> !lock.isLocked());

        CompletableFuture<Boolean> first = lock.tryLockAsync(0, 1, TimeUnit.SECONDS, "job");
        CompletableFuture<Boolean> second = lock.tryLockAsync(0, 1, TimeUnit.SECONDS, "job");

        for (CompletableFuture<Boolean> acquisition : List.of(first, second)) {
            assertThatThrownBy(() -> acquisition.get(5, TimeUnit.SECONDS)).hasCauseInstanceOf(LockLostException.class);
        }
        assertThatThrownBy(() -> lock.unlockAsync("job").get(5, TimeUnit.SECONDS))
                .hasCauseInstanceOf(LockLostException.class);
        assertThat(events.lost).as("reported once").hasSize(1);
        assertThat(lock.isLocked()).as("no hold was started on top of the lost one").isFalse();
    }
}

package io.distlock.core;

import io.distlock.test.RedisExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.distlock.test.Polling.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(60)
class LeaseTest {

    private static final Duration WATCHDOG = Duration.ofMillis(600);

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
        assertThat(lock.remainingTimeToLive()).isBetween(1L, 400L);
        assertThat(holder.watchdogHoldCount()).isZero();

        RedisLock other = clients.open(redis.server()).getLock("lease");
        long start = System.nanoTime();
        assertThat(other.tryLock(5, TimeUnit.SECONDS)).isTrue();
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(2_000);

        assertThatThrownBy(lock::unlock)
                .isInstanceOf(LockLostException.class)
                .hasMessageContaining("lease");
        assertThat(events.lost).singleElement().satisfies(e -> assertThat(e.lockName()).isEqualTo("lease"));
        assertThat(events.renewalLost).as("an explicit lease is not the watchdog's").isEmpty();
        assertThat(other.isHeldByCurrentThread()).isTrue();
        other.unlock();
    }

    @Test
    void anExplicitLeaseThatRanOutIsReportedReleasedOnceForgotten() throws Exception {
        RecordingListener events = new RecordingListener();
        LockClient client = clients.open(redis.server(), b -> b.watchdogTimeout(WATCHDOG).listener(events));
        RedisLock lock = client.getLock("self-expiring");
        assertThat(lock.tryLock(0, 200, TimeUnit.MILLISECONDS)).isTrue();

        awaitTrue("the ended hold is reported released", WATCHDOG.multipliedBy(10), () -> !events.released.isEmpty());
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

        long until = System.nanoTime() + WATCHDOG.multipliedBy(4).toNanos();
        awaitTrue("four watchdog timeouts passed with the lock held", WATCHDOG.multipliedBy(8), () -> {
            assertThat(lock.isHeldByCurrentThread()).isTrue();
            assertThat(lock.remainingTimeToLive()).isPositive();
            return System.nanoTime() > until;
        });
        assertThat(events.renewed.size()).isGreaterThanOrEqualTo(8);
        assertThat(events.lost).isEmpty();

        lock.unlock();
        assertThat(client.watchdogHoldCount()).isZero();
        int renewalsAtUnlock = events.renewed.size();
        long later = System.nanoTime() + WATCHDOG.toNanos();
        awaitTrue("one more watchdog timeout passed", WATCHDOG.multipliedBy(3), () -> System.nanoTime() > later);
        assertThat(events.renewed.size()).isLessThanOrEqualTo(renewalsAtUnlock + 1);
        assertThat(lock.isLocked()).isFalse();
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
        lock.lock(200, TimeUnit.MILLISECONDS);
        lock.lock();
        assertThat(client.watchdogHoldCount()).isEqualTo(1);

        long until = System.nanoTime() + WATCHDOG.multipliedBy(3).toNanos();
        awaitTrue("three watchdog timeouts passed", WATCHDOG.multipliedBy(6), () -> System.nanoTime() > until);

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

    @Test
    void reacquiringAfterASilentlyExpiredLeaseReportsTheOldHoldLost() throws Exception {
        RecordingListener events = new RecordingListener();
        RedisLock lock = clients.open(redis.server(), b -> b.listener(events)).getLock("silent");
        assertThat(lock.tryLock(0, 200, TimeUnit.MILLISECONDS)).isTrue();
        awaitTrue("the lease expired", Duration.ofSeconds(5), () -> !lock.isLocked());

        assertThat(lock.tryLock(0, 10_000, TimeUnit.MILLISECONDS)).isTrue();

        assertThat(events.lost).hasSize(1);
        assertThat(lock.getHoldCount()).isEqualTo(1);
        lock.unlock();
        assertThat(lock.isLocked()).isFalse();
    }
}

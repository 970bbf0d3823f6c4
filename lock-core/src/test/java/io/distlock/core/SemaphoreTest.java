package io.distlock.core;

import io.distlock.test.RedisExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import static io.distlock.test.Polling.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Semaphores through the public API, on one real Redis, with a client per holder where it matters. */
@Timeout(60)
class SemaphoreTest {

    private static final long SLACK_MILLIS = 10_000;

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    @RegisterExtension
    final TestClients clients = new TestClients();

    @Test
    void atMostThePermitCountIsOutAndAReleaseWakesAWaiterOfAnotherClient() throws Exception {
        List<RedisSemaphore> holders = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            RedisSemaphore semaphore = clients.open(redis.server()).getSemaphore("api", 3);
            assertThat(semaphore.tryAcquire()).isTrue();  // watchdog leases: only a release frees one early
            holders.add(semaphore);
        }
        LockClient waiterClient = clients.open(redis.server());
        RedisSemaphore waiter = waiterClient.getSemaphore("api", 3);
        assertThat(waiter.availablePermits()).isZero();
        assertThat(waiter.tryAcquire(200, TimeUnit.MILLISECONDS)).as("a fourth holder").isFalse();

        CompletableFuture<Boolean> waiting = waiter.tryAcquireAsync(30, -1, TimeUnit.SECONDS, "waiter");
        awaitTrue("the waiter sleeps on the channel", Duration.ofSeconds(10),
                () -> waiterClient.activeSubscriptions() == 1);
        long released = System.nanoTime();
        holders.get(1).release();
        assertThat(waiting.get(SLACK_MILLIS, TimeUnit.MILLISECONDS)).isTrue();
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - released))
                .as("woken by the release, long before a 30 s lease ends").isLessThan(5_000);
        assertThat(waiter.availablePermits()).isZero();

        waiter.releaseAsync("waiter").get(SLACK_MILLIS, TimeUnit.MILLISECONDS);
        holders.get(0).release();
        holders.get(2).release();
        assertThat(waiter.availablePermits()).isEqualTo(3);
        assertThat(KeysLeft.in(redis.server())).as("the last permit takes the semaphore's keys").isEmpty();
    }

    @Test
    void aHolderTakesSeveralPermitsAndGivesBackOneAtATime() throws Exception {
        RedisSemaphore semaphore = clients.open(redis.server()).getSemaphore("exports", 2);
        RedisSemaphore other = clients.open(redis.server()).getSemaphore("exports", 2);
        semaphore.acquire();
        assertThat(semaphore.tryAcquire(0, 30, TimeUnit.SECONDS)).as("a second permit, same thread").isTrue();
        assertThat(semaphore.heldPermits()).isEqualTo(2);
        assertThat(semaphore.tryAcquire()).as("no third").isFalse();
        assertThat(other.tryAcquire()).isFalse();
        semaphore.release();
        assertThat(semaphore.heldPermits()).isEqualTo(1);
        assertThat(other.tryAcquire()).isTrue();
        other.release();
        semaphore.release();
        assertThatThrownBy(semaphore::release).isInstanceOf(IllegalMonitorStateException.class);
        assertThat(KeysLeft.in(redis.server())).isEmpty();
    }

    /** The client is closed without a release, as a crashed process would leave it. */
    @Test
    void aCrashedHoldersPermitFreesItselfWithinItsLease() throws Exception {
        LockClient crashing = clients.open(redis.server());
        assertThat(crashing.getSemaphore("jobs", 1).tryAcquire(0, 500, TimeUnit.MILLISECONDS)).isTrue();
        crashing.close();
        RedisSemaphore next = clients.open(redis.server()).getSemaphore("jobs", 1);
        long start = System.nanoTime();
        assertThat(next.tryAcquire(SLACK_MILLIS, TimeUnit.MILLISECONDS)).isTrue();
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(SLACK_MILLIS);
        next.release();
    }

    @Test
    void theWatchdogKeepsAPermitPastItsLeaseUntilReleased() throws Exception {
        Duration watchdog = Duration.ofSeconds(1);
        RedisSemaphore held = clients.open(redis.server(), b -> b.watchdogTimeout(watchdog)).getSemaphore("long", 1);
        RedisSemaphore other = clients.open(redis.server()).getSemaphore("long", 1);
        held.acquire();
        long until = System.nanoTime() + 3 * watchdog.toNanos();
        while (System.nanoTime() < until) {
            assertThat(other.tryAcquire()).as("kept by the watchdog").isFalse();
            Thread.sleep(200);
        }
        assertThat(held.confirmHeld(Duration.ofMillis(100))).isTrue();
        held.release();
        assertThat(other.tryAcquire()).isTrue();
        other.release();
    }

    @Test
    void aPermitTakenAwaySignalsItsLossAndItsReleaseSaysSo() throws Exception {
        RedisSemaphore semaphore = clients.open(redis.server(), b -> b.watchdogTimeout(Duration.ofSeconds(1)))
                .getSemaphore("cleared", 2);
        semaphore.acquire();
        CompletionStage<LockLostException> lost = semaphore.whenLost();
        assertThat(clients.open(redis.server()).getSemaphore("cleared", 2).forceReleaseAll()).isTrue();
        assertThat(lost.toCompletableFuture().get(SLACK_MILLIS, TimeUnit.MILLISECONDS)).isNotNull();
        assertThat(semaphore.confirmHeld(Duration.ZERO)).isFalse();
        assertThatThrownBy(semaphore::release).isInstanceOf(LockLostException.class);
    }

    /** Changing the count is explicit; a client that keeps the old count is told, waiting or not. */
    @Test
    void aChangedPermitCountHoldsForEveryClient() throws Exception {
        RedisSemaphore one = clients.open(redis.server()).getSemaphore("grow", 1);
        one.acquire();
        LockClient waiterClient = clients.open(redis.server());
        CompletableFuture<Boolean> waiting = waiterClient.getSemaphore("grow", 1)
                .tryAcquireAsync(30, -1, TimeUnit.SECONDS, "waiter");
        awaitTrue("the waiter sleeps", Duration.ofSeconds(10), () -> waiterClient.activeSubscriptions() == 1);
        RedisSemaphore two = clients.open(redis.server()).getSemaphore("grow", 2);
        assertThatThrownBy(two::tryAcquire).isInstanceOf(LockException.class).hasMessageContaining("has 1 permits");

        long raised = System.nanoTime();
        assertThat(two.setPermits(2)).isTrue();
        assertThatThrownBy(() -> waiting.get(SLACK_MILLIS, TimeUnit.MILLISECONDS))
                .as("the waiter, woken by the raise, asked with the old count")
                .hasCauseInstanceOf(LockException.class).hasMessageContaining("has 2 permits");
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - raised)).isLessThan(5_000);
        assertThat(two.tryAcquire()).as("the new count is the semaphore's").isTrue();
        assertThat(two.availablePermits()).isZero();
        two.release();
        one.release();
        assertThat(two.setPermits(3)).as("no permit out: nothing to change").isFalse();
    }

    @Test
    void badPermitCountsAreRefusedWithTheReason() {
        LockClient client = clients.open(redis.server());
        assertThatThrownBy(() -> client.getSemaphore("bad", 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("permits must be positive, but was 0");
        assertThatThrownBy(() -> client.getSemaphore("bad", 2).setPermits(-1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("was -1");
        assertThatThrownBy(() -> client.getSemaphore(" ", 2)).isInstanceOf(IllegalArgumentException.class);
    }
}

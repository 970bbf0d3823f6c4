package io.distlock.core;

import io.distlock.test.RedisExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(30)
class LockTemplateTest {

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    @RegisterExtension
    final TestClients clients = new TestClients();

    @Test
    void executeRunsTheActionUnderTheLockAndReturnsItsResult() {
        LockClient client = clients.open(redis.server());
        LockTemplate template = new LockTemplate(client);

        String result = template.execute("order:42", Duration.ofSeconds(3), null,
                () -> client.getLock("order:42").isHeldByCurrentThread() ? "held" : "not held");

        assertThat(result).isEqualTo("held");
        assertThat(client.getLock("order:42").isLocked()).isFalse();
    }

    @Test
    void aLeaseShorterThanAMillisecondIsALeaseNotTheWatchdog() {
        LockClient client = clients.open(redis.server());
        LockTemplate template = new LockTemplate(client);
        // Duration.toMillis() made it 0, which the lock takes for the watchdog: renewed forever.
        try (LockHandle ignored = template.acquire("sub-millisecond", Duration.ZERO, Duration.ofNanos(500_000))) {
            assertThat(client.watchdogHoldCount()).as("a positive lease, however short").isZero();
        } catch (LockLostException expected) {
            // the lease of about a millisecond ended before the release: what such a lease does
        }
    }

    @Test
    void theLockIsReleasedWhenTheActionThrows() {
        LockClient client = clients.open(redis.server());
        LockTemplate template = new LockTemplate(client);
        assertThatThrownBy(() -> template.run("failing", null, null, () -> {
            throw new IllegalStateException("boom");
        })).hasMessage("boom");
        assertThat(client.getLock("failing").isLocked()).isFalse();
    }

    @Test
    void notAcquiringInTimeThrowsLockAcquisitionExceptionNamingLockAndWait() throws Exception {
        RedisLock held = clients.open(redis.server()).getLock("busy");
        held.lock();
        try {
            LockTemplate template = new LockTemplate(clients.open(redis.server()));
            long start = System.nanoTime();
            assertThatThrownBy(() -> template.execute("busy", Duration.ofMillis(300), null, () -> "never"))
                    .isInstanceOf(LockAcquisitionException.class)
                    .hasMessageContaining("busy")
                    .hasMessageContaining("300 ms");
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isBetween(250L, 2_000L);
        } finally {
            held.unlock();
        }
    }

    @Test
    void aPermitIsHeldWhileTheActionRunsAndNoMoreThanThePermitCountAreOut() throws Exception {
        LockClient client = clients.open(redis.server());
        LockTemplate template = new LockTemplate(client);
        RedisSemaphore semaphore = client.getSemaphore("exports", 2);
        try (LockHandle first = template.acquirePermit("exports", 2, null, null)) {
            int held = template.executeWithPermit("exports", 2, null, null, semaphore::heldPermits);
            assertThat(held).as("the thread's two permits").isEqualTo(2);
            assertThat(semaphore.availablePermits()).as("given back after the action").isEqualTo(1);
            RedisSemaphore other = clients.open(redis.server()).getSemaphore("exports", 2);
            assertThat(other.tryAcquire()).isTrue();
            LockTemplate otherTemplate = new LockTemplate(clients.open(redis.server()));
            assertThatThrownBy(() -> otherTemplate.acquirePermit("exports", 2, Duration.ofMillis(100), null))
                    .isInstanceOf(LockAcquisitionException.class)
                    .hasMessage("Could not acquire a permit of semaphore 'exports' within 100 ms: all 2 permits are out");
            other.release();
        }
        assertThat(KeysLeft.in(redis.server())).isEmpty();
    }

    @Test
    void handlesReleaseOnCloseOnce() throws Exception {
        LockClient client = clients.open(redis.server());
        LockTemplate template = new LockTemplate(client, Duration.ofSeconds(1));
        try (LockHandle handle = template.acquire("handle", null, Duration.ofSeconds(10))) {
            assertThat(handle.name()).isEqualTo("handle");
            assertThat(handle.lock().remainingTimeToLive()).isBetween(1L, 10_000L);
            assertThat(CompletableFuture.supplyAsync(() -> client.getLock("handle").tryLock())
                    .get(5, TimeUnit.SECONDS)).isFalse();
            handle.close();
        }
        assertThat(client.getLock("handle").isLocked()).isFalse();
    }
}

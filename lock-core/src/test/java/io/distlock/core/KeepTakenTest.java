package io.distlock.core;

import io.distlock.test.RedisExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static io.distlock.test.Polling.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A release that keeps the lock taken for a while (a job's minimum hold time): nobody, not even
 * the releasing holder, takes it before that time has passed, and it frees itself after.
 */
@Timeout(60)
class KeepTakenTest {

    private static final Duration KEEP = Duration.ofSeconds(2);

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    @RegisterExtension
    final TestClients clients = new TestClients();

    @Test
    void aKeptLockIsTakenForEverybodyUntilTheTimeHasPassed() throws Exception {
        LockClient instance = clients.open(redis.server());
        RedisLock job = instance.getLock("nightly-report");
        assertThat(job.tryLockAsync(0, 30, TimeUnit.SECONDS, "tick-1").get(10, TimeUnit.SECONDS)).isTrue();
        long released = System.nanoTime();

        job.unlockKeepingAsync("tick-1", KEEP).get(10, TimeUnit.SECONDS);

        assertThat(job.isLocked()).isTrue();
        assertThat(job.remainingTimeToLive()).as("the lease is the time kept").isBetween(1L, KEEP.toMillis());
        assertThat(job.isHeldBy("tick-1")).as("held by nobody").isFalse();
        assertThat(job.tryLockAsync(0, 30, TimeUnit.SECONDS, "tick-1").get(10, TimeUnit.SECONDS))
                .as("not even by the holder that kept it").isFalse();
        assertThat(job.tryLock()).as("nor by a thread of the same client").isFalse();

        RedisLock otherInstance = clients.open(redis.server()).getLock("nightly-report");
        assertThat(otherInstance.tryLock(10, TimeUnit.SECONDS)).as("free once the time has passed").isTrue();
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - released))
                .isGreaterThanOrEqualTo(KEEP.toMillis() - 50);
        otherInstance.unlock();
    }

    /**
     * A waiter of another instance sleeps on the holder's long lease; the holder releases keeping
     * the lock briefly. The waiter must take it once the keep ends, not when the lease it slept on
     * would have ended.
     */
    @Test
    void aWaiterTakesAKeptLockAsSoonAsTheKeepEnds() throws Exception {
        RedisLock job = clients.open(redis.server()).getLock("kept-briefly");
        assertThat(job.tryLockAsync(0, 20, TimeUnit.SECONDS, "tick-1").get(10, TimeUnit.SECONDS)).isTrue();
        RedisLock otherInstance = clients.open(redis.server()).getLock("kept-briefly");
        ScriptStats.reset(redis.server());
        CompletableFuture<Boolean> waiter = otherInstance.tryLockAsync(15, 20, TimeUnit.SECONDS, "tick-2");
        awaitTrue("the waiter tried, subscribed and tried again: it sleeps on the holder's lease",
                Duration.ofSeconds(10), () -> ScriptStats.scriptCalls(redis.server()) >= 2);

        long released = System.nanoTime();
        job.unlockKeepingAsync("tick-1", Duration.ofMillis(500)).get(10, TimeUnit.SECONDS);

        assertThat(waiter.get(20, TimeUnit.SECONDS)).as("the waiter took the lock").isTrue();
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - released))
                .as("taken once the keep ended, not at the end of the lease it slept on").isBetween(450L, 3_000L);
        otherInstance.unlockAsync("tick-2").get(10, TimeUnit.SECONDS);
    }

    @Test
    void aNestedReleaseOnlyCountsDownAndTheOuterOneKeeps() throws Exception {
        RedisLock job = clients.open(redis.server()).getLock("nested-job");
        assertThat(job.tryLockAsync(0, 30, TimeUnit.SECONDS, "run").get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(job.tryLockAsync(0, 30, TimeUnit.SECONDS, "run").get(10, TimeUnit.SECONDS)).isTrue();

        job.unlockKeepingAsync("run", KEEP).get(10, TimeUnit.SECONDS);
        assertThat(job.isHeldBy("run")).as("the outer hold").isTrue();

        job.unlockKeepingAsync("run", KEEP).get(10, TimeUnit.SECONDS);
        assertThat(job.isHeldBy("run")).isFalse();
        assertThat(job.isLocked()).isTrue();
    }

    @Test
    void aMultiLockKeepsEveryComponent() throws Exception {
        LockClient client = clients.open(redis.server());
        MultiLock both = new MultiLock(client.getLock("keep-a"), client.getLock("keep-b"));
        assertThat(both.tryLockAsync(0, 30, TimeUnit.SECONDS, "batch").get(10, TimeUnit.SECONDS)).isTrue();

        both.unlockKeepingAsync("batch", KEEP).get(10, TimeUnit.SECONDS);

        assertThat(both.locks()).allSatisfy(component -> {
            assertThat(component.isLocked()).isTrue();
            assertThat(component.isHeldBy("batch")).isFalse();
        });
    }

    @Test
    void locksWithAnOrderOrSharedHoldsCannotBeKeptAndStayHeld() throws Exception {
        LockClient client = clients.open(redis.server());
        RedisLock fair = client.getFairLock("fair-job");
        assertThat(fair.tryLockAsync(0, 30, TimeUnit.SECONDS, "run").get(10, TimeUnit.SECONDS)).isTrue();

        assertThatThrownBy(() -> fair.unlockKeepingAsync("run", KEEP).get(10, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("fair");
        assertThat(fair.isHeldBy("run")).isTrue();
        fair.unlockAsync("run").get(10, TimeUnit.SECONDS);

        RedisLock plain = client.getLock("keep-nothing");
        assertThatThrownBy(() -> plain.unlockKeepingAsync("run", Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("positive");
    }
}

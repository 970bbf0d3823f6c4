package io.distlock.core;

import io.distlock.test.RedisExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static io.distlock.test.Polling.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(30)
class AsyncLockTest {

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    @RegisterExtension
    final TestClients clients = new TestClients();

    @Test
    void explicitHoldersAcquireOnOneThreadAndReleaseOnAnother() throws Exception {
        RedisLock lock = clients.open(redis.server()).getLock("async");
        assertThat(lock.tryLockAsync(0, 0, TimeUnit.SECONDS, "job-1").get(5, TimeUnit.SECONDS)).isTrue();
        assertThat(lock.tryLockAsync(0, 0, TimeUnit.SECONDS, "job-1").get(5, TimeUnit.SECONDS))
                .as("same holder re-enters").isTrue();
        assertThat(lock.tryLockAsync(0, 0, TimeUnit.SECONDS, "job-2").get(5, TimeUnit.SECONDS)).isFalse();
        assertThat(lock.isHeldByCurrentThread()).isFalse();

        CompletableFuture.runAsync(() -> lock.unlockAsync("job-1").join()).get(5, TimeUnit.SECONDS);
        assertThat(lock.isLocked()).isTrue();
        lock.unlockAsync("job-1").get(5, TimeUnit.SECONDS);
        assertThat(lock.isLocked()).isFalse();
    }

    /** The holder's lease is 30 s: only the release message can wake the sleeping waiter quickly. */
    @Test
    void anAsyncWaiterIsWokenByTheRelease() throws Exception {
        RedisLock held = clients.open(redis.server()).getLock("async-wait");
        RedisLock waited = clients.open(redis.server()).getLock("async-wait");
        assertThat(held.tryLockAsync(0, 0, TimeUnit.SECONDS, "first").get(5, TimeUnit.SECONDS)).isTrue();
        ScriptStats.reset(redis.server());
        CompletableFuture<Boolean> second = waited.tryLockAsync(20, 0, TimeUnit.SECONDS, "second");
        awaitTrue("the waiter tried before and after subscribing, and sleeps", Duration.ofSeconds(5),
                () -> ScriptStats.scriptCalls(redis.server()) >= 2);
        assertThat(second).isNotDone();

        held.unlockAsync("first").get(5, TimeUnit.SECONDS);

        assertThat(second.get(2, TimeUnit.SECONDS)).isTrue();
        waited.unlockAsync("second").get(5, TimeUnit.SECONDS);
    }

    @Test
    void cancellingAnAsyncWaitLeavesNothingBehind() throws Exception {
        LockClient client = clients.open(redis.server());
        RedisLock lock = client.getLock("async-cancel");
        assertThat(lock.tryLockAsync(0, 0, TimeUnit.SECONDS, "first").get(5, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<Boolean> waiting = lock.tryLockAsync(20, 0, TimeUnit.SECONDS, "second");
        awaitTrue("the waiter is subscribed", Duration.ofSeconds(5), () -> client.activeSubscriptions() == 1);

        waiting.cancel(true);

        awaitTrue("the subscription is gone", Duration.ofSeconds(5), () -> client.activeSubscriptions() == 0);
        lock.unlockAsync("first").get(5, TimeUnit.SECONDS);
        assertThat(lock.isLocked()).isFalse();
    }

    @Test
    void anAsyncWaitTheCallerTimedOutNeverTakesTheLockLater() throws Exception {
        LockClient client = clients.open(redis.server());
        RedisLock lock = client.getLock("async-abandoned");
        assertThat(lock.tryLockAsync(0, 0, TimeUnit.SECONDS, "first").get(5, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<Boolean> waiting = lock.tryLockAsync(20, 0, TimeUnit.SECONDS, "second")
                .orTimeout(200, TimeUnit.MILLISECONDS);
        assertThatThrownBy(() -> waiting.get(5, TimeUnit.SECONDS)).hasCauseInstanceOf(TimeoutException.class);

        lock.unlockAsync("first").get(5, TimeUnit.SECONDS);

        RedisLock other = clients.open(redis.server()).getLock("async-abandoned");
        assertThat(other.tryLock(5, TimeUnit.SECONDS)).isTrue();
        other.unlock();
        assertThat(client.watchdogHoldCount()).isZero();
    }

    @Test
    void unlockingForAHolderThatHoldsNothingFails() {
        RedisLock lock = clients.open(redis.server()).getLock("async-none");
        assertThatThrownBy(() -> lock.unlockAsync("nobody").get(5, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(IllegalMonitorStateException.class)
                .hasMessageContaining("nobody");
    }
}

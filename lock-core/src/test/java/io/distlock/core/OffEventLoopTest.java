package io.distlock.core;

import io.distlock.test.RedisExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Code of the caller's (future continuations, listeners) never runs on Lettuce's event loop: a
 * continuation or listener that waits for Redis would otherwise stall every command of the client
 * until the command timeout, its own included.
 */
@Timeout(30)
class OffEventLoopTest {

    /** Well under the 2 s command timeout a stalled event loop would wait out. */
    private static final long QUICK_MILLIS = 1_500;

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    @RegisterExtension
    final TestClients clients = new TestClients();

    @Test
    void aContinuationOfAnAsyncLockMayWaitForRedis() throws Exception {
        assertAContinuationMayWaitForRedis(clients.open(redis.server()).getLock("continuation"));
    }

    /**
     * A composite lock with a lease completes after its components' leases are set: that answer
     * too must reach the caller off the event loop.
     */
    @Test
    void aContinuationOfAnAsyncMultiLockWithALeaseMayWaitForRedis() throws Exception {
        LockClient client = clients.open(redis.server());
        assertAContinuationMayWaitForRedis(new MultiLock(client.getLock("multi-a"), client.getLock("multi-b")));
    }

    private static void assertAContinuationMayWaitForRedis(RedisLock lock) throws Exception {
        long start = System.nanoTime();

        CompletableFuture<Boolean> lockedInside = lock.tryLockAsync(0, 10, TimeUnit.SECONDS, "h")
                .thenApply(acquired -> acquired && lock.isLocked());
        CompletableFuture<Boolean> freeAfter = lockedInside.thenCompose(locked -> lock.unlockAsync("h"))
                .thenApply(released -> lock.isLocked());

        assertThat(lockedInside.get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(freeAfter.get(10, TimeUnit.SECONDS)).isFalse();
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(QUICK_MILLIS);
    }

    @Test
    void aListenerMayWaitForRedis() throws Exception {
        CompletableFuture<Boolean> seenByListener = new CompletableFuture<>();
        LockClient[] client = new LockClient[1];
        client[0] = clients.open(redis.server(), b -> b.listener(new LockListener() {
            @Override
            public void onAcquired(LockEvent event) {
                try {
                    seenByListener.complete(client[0].getLock("listener").isLocked());
                } catch (RuntimeException e) {
                    seenByListener.completeExceptionally(e);
                }
            }
        }));
        RedisLock lock = client[0].getLock("listener");
        long start = System.nanoTime();

        CompletableFuture.runAsync(() -> {
            lock.lock();
            lock.unlock();
        }).get(10, TimeUnit.SECONDS);

        assertThat(seenByListener.get(5, TimeUnit.SECONDS)).isTrue();
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(QUICK_MILLIS);
    }

    @Test
    void eventsAreDeliveredBeforeTheCallReturns() {
        RecordingListener events = new RecordingListener();
        RedisLock lock = clients.open(redis.server(), b -> b.listener(events)).getLock("in-order");
        for (int i = 1; i <= 20; i++) {
            lock.lock();
            assertThat(events.acquired).hasSize(i);
            lock.unlock();
            assertThat(events.released).hasSize(i);
        }
    }
}

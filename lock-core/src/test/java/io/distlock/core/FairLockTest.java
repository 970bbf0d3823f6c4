package io.distlock.core;

import io.distlock.test.JavaProcess;
import io.distlock.test.RedisExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static io.distlock.test.Polling.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

/** FIFO across clients; waiters that die or give up never stall the queue. */
@Timeout(90)
class FairLockTest {

    private static final Duration SLOT = Duration.ofSeconds(1);

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    @RegisterExtension
    final TestClients clients = new TestClients();

    private LockClient client() {
        return clients.open(redis.server(), b -> b.fairSlotTimeout(SLOT));
    }

    private static long queued(String name) {
        return Long.parseLong(redis.server().commandString("LLEN", "distlock:{" + name + "}:queue"));
    }

    @Test
    void waitersOfDifferentClientsGetTheLockInArrivalOrder() throws Exception {
        List<LockClient> waiterClients = List.of(client(), client(), client());
        RedisLock holder = client().getFairLock("fifo");
        holder.lock();  // watchdog lease: waiters are woken by the release, one by one

        List<Integer> order = new CopyOnWriteArrayList<>();
        List<CompletableFuture<?>> waiters = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            for (int i = 0; i < 6; i++) {
                int arrival = i;
                RedisLock lock = waiterClients.get(i % 3).getFairLock("fifo");
                waiters.add(CompletableFuture.runAsync(() -> {
                    lock.lock();
                    order.add(arrival);
                    lock.unlock();
                }, pool));
                awaitTrue("waiter " + i + " queued", Duration.ofSeconds(10), () -> queued("fifo") == arrival + 1);
            }
            holder.unlock();
            for (CompletableFuture<?> waiter : waiters) {
                waiter.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(order).containsExactly(0, 1, 2, 3, 4, 5);
        assertThat(queued("fifo")).isZero();
    }

    @Test
    void aWaiterThatGaveUpLeavesTheQueueAtOnce() throws Exception {
        RedisLock holder = client().getFairLock("gave-up");
        holder.lock();
        RedisLock impatient = client().getFairLock("gave-up");
        assertThat(CompletableFuture.supplyAsync(() -> {
            try {
                return impatient.tryLock(300, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }).get(10, TimeUnit.SECONDS)).isFalse();
        assertThat(queued("gave-up")).as("the timed-out waiter left").isZero();

        RedisLock next = client().getFairLock("gave-up");
        CompletableFuture<Long> waited = CompletableFuture.supplyAsync(() -> {
            long start = System.nanoTime();
            next.lock();
            next.unlock();
            return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        });
        awaitTrue("queued", Duration.ofSeconds(10), () -> queued("gave-up") == 1);
        long released = System.nanoTime();
        holder.unlock();
        waited.get(10, TimeUnit.SECONDS);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - released)).isLessThan(SLOT.toMillis());
    }

    @Test
    void aKilledWaiterHoldsUpTheOnesBehindItForAtMostOneSlot() throws Exception {
        RedisLock holder = client().getFairLock("killed");
        holder.lock();
        try (JavaProcess dead = JavaProcess.start(LockHolderMain.class, redis.server().uri(), "killed", "30000",
                "fair")) {
            awaitTrue("the child waits in the queue", Duration.ofSeconds(30), () -> queued("killed") == 1);
            dead.kill();
        }
        RedisLock next = client().getFairLock("killed");
        CompletableFuture<Void> acquired = CompletableFuture.runAsync(() -> {
            next.lock();
            next.unlock();
        });
        awaitTrue("queued behind the dead waiter", Duration.ofSeconds(10), () -> queued("killed") == 2);
        long released = System.nanoTime();
        holder.unlock();
        acquired.get(20, TimeUnit.SECONDS);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - released))
                .as("one slot (1 s) and some slack, not the holder's 30 s lease").isLessThan(SLOT.toMillis() + 2_000);
        assertThat(queued("killed")).isZero();
    }

    @Test
    void eventsNameTheFairKind() {
        RecordingListener events = new RecordingListener();
        RedisLock lock = clients.open(redis.server(), b -> b.listener(events)).getFairLock("kind");
        lock.lock();
        lock.lock();
        lock.unlock();
        lock.unlock();
        assertThat(events.acquired).extracting(LockEvent::lockType).containsExactly("fair", "fair");
        assertThat(lock.isLocked()).isFalse();
    }
}

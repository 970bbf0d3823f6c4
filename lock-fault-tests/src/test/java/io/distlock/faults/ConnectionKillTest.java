package io.distlock.faults;

import io.distlock.core.LockClient;
import io.distlock.core.LockException;
import io.distlock.core.RecordingListener;
import io.distlock.core.RedisLock;
import io.distlock.core.TestClients;
import io.distlock.test.RedisExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static io.distlock.test.Polling.awaitTrue;
import static io.distlock.test.Polling.within;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Connection kill: while a holder holds (watchdog, 30 s lease) and waiters of another client wait,
 * and other threads lock and unlock under load, Redis drops every client connection
 * ({@code CLIENT KILL TYPE pubsub}, then {@code TYPE normal}). The clients reconnect and subscribe
 * again, and the release right after the kill still wakes the waiters within seconds: by the
 * message or by the wake-up on re-subscription, never by the lease running out.
 */
@Timeout(60)
class ConnectionKillTest {

    private static final int ROUNDS = 3;
    private static final int WAITERS = 8;
    private static final int LOAD_THREADS = 4;
    private static final long WAIT_MS = 20_000;
    /** Release to last waiter's acquisition: far below both the wait and the 30 s lease. */
    private static final long WOKEN_WITHIN_MS = 8_000;

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    @RegisterExtension
    final TestClients clients = new TestClients();

    @Test
    void killedConnectionsComeBackAndNoWakeUpIsLost() throws Exception {
        LockClient holderClient = clients.open(redis.server());
        RecordingListener waiterEvents = new RecordingListener();
        LockClient waiterClient = clients.open(redis.server(), b -> b.listener(waiterEvents));
        assertThat(holderClient.watchdogTimeout()).isEqualTo(Duration.ofSeconds(30));

        Load load = new Load(List.of(holderClient, waiterClient));
        AtomicLong waiterErrors = new AtomicLong();
        AtomicLong holderErrors = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(WAITERS + LOAD_THREADS);
        try {
            load.start(pool);
            for (int round = 0; round < ROUNDS; round++) {
                String name = "kill:" + round;
                RedisLock holder = holderClient.getLock(name);
                holder.lock();
                List<Future<Long>> acquisitions = new ArrayList<>();
                for (int w = 0; w < WAITERS; w++) {
                    RedisLock lock = waiterClient.getLock(name);
                    acquisitions.add(pool.submit(() -> acquireAndRelease(lock, waiterErrors)));
                }
                awaitTrue("the waiters of round " + round + " wait", Duration.ofSeconds(15),
                        () -> waiterEvents.waiting.stream().filter(event -> event.lockName().equals(name)).count()
                                == WAITERS);
                awaitTrue("the waiters' client is subscribed to the lock's channel", Duration.ofSeconds(15),
                        () -> subscribers("distlock:{" + name + "}:ch") == 1);
                long loadBefore = load.cycles.get();

                // SKIPME defaults to yes: the fixture's own connection is spared. Redis counts a
                // connection as pubsub while it has subscriptions: the waiters' one has.
                assertThat((Long) redis.server().command("CLIENT", "KILL", "TYPE", "pubsub"))
                        .as("pub/sub connections killed").isGreaterThanOrEqualTo(1);
                assertThat((Long) redis.server().command("CLIENT", "KILL", "TYPE", "normal"))
                        .as("command connections killed").isGreaterThanOrEqualTo(2);
                long releasedAt = System.nanoTime();
                release(holder, holderErrors);

                long lastWokenAfterMs = 0;
                for (Future<Long> acquisition : acquisitions) {
                    long wokenAfterMs = TimeUnit.NANOSECONDS.toMillis(
                            acquisition.get(WAIT_MS + 10_000, TimeUnit.MILLISECONDS) - releasedAt);
                    assertThat(wokenAfterMs).as("round %d: release to acquisition, against a 30 s lease", round)
                            .isLessThan(WOKEN_WITHIN_MS);
                    lastWokenAfterMs = Math.max(lastWokenAfterMs, wokenAfterMs);
                }
                System.out.printf("connection kill round %d: all %d waiters acquired within %d ms of the release%n",
                        round, WAITERS, lastWokenAfterMs);
                awaitTrue("the load goes on after the kill", Duration.ofSeconds(10),
                        () -> load.cycles.get() > loadBefore + 10);
            }
        } finally {
            load.stop();
            pool.shutdownNow();
        }
        assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).as("all threads ended").isTrue();
        System.out.printf("connection kills: %d load cycles, %d load errors, %d load timeouts; %d waiter and %d holder"
                + " errors over %d rounds%n", load.cycles.get(), load.errors.get(), load.timeouts.get(), waiterErrors.get(),
                holderErrors.get(), ROUNDS);

        for (LockClient client : List.of(holderClient, waiterClient)) {
            awaitTrue("no renewal left and no subscription left", Duration.ofSeconds(10),
                    () -> client.watchdogHoldCount() == 0 && client.activeSubscriptions() == 0);
        }
        // An attempt that failed on a killed connection may have run; its undo is retried until
        // Redis answers, at most a second apart.
        List<String> keys = List.of("distlock:{kill:load:0}", "distlock:{kill:load:1}", "distlock:{kill:0}",
                "distlock:{kill:1}", "distlock:{kill:2}");
        within(Duration.ofSeconds(5),
                () -> keys.stream().noneMatch(key -> (Long) redis.server().command("EXISTS", key) == 1L));
        for (String key : keys) {
            assertThat(redis.server().command("EXISTS", key)).as("%s is free, but holds %s with pttl %s", key,
                    redis.server().command("HGETALL", key), redis.server().command("PTTL", key)).isEqualTo(0L);
        }
    }

    private static long subscribers(String channel) {
        List<?> reply = (List<?>) redis.server().command("PUBSUB", "NUMSUB", channel);
        return (Long) reply.get(1);
    }

    /**
     * Waits for the lock and releases it at once. An attempt that fails because its connection was
     * killed under it (a {@link LockException}, as documented) is made again within the same wait.
     *
     * @return when the lock was acquired
     */
    private static long acquireAndRelease(RedisLock lock, AtomicLong errors) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
        while (true) {
            long remainingMs = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            try {
                if (lock.tryLock(Math.max(0, remainingMs), TimeUnit.MILLISECONDS)) {
                    break;
                }
                String key = "distlock:{" + lock.getName() + "}";
                throw new AssertionError("not woken within the wait time; the lock in Redis: "
                        + redis.server().command("HGETALL", key) + ", pttl " + redis.server().command("PTTL", key));
            } catch (LockException e) {
                errors.incrementAndGet();
            }
        }
        long acquiredAt = System.nanoTime();
        release(lock, errors);
        return acquiredAt;
    }

    /**
     * Releases, calling {@code unlock()} again while it fails on a killed connection (retry-safe).
     */
    private static void release(RedisLock lock, AtomicLong errors) {
        awaitTrue("the release of " + lock.getName() + " went through", Duration.ofSeconds(15), () -> {
            try {
                lock.unlock();
                return true;
            } catch (LockException e) {
                errors.incrementAndGet();
                return false;
            }
        });
    }

    /**
     * Threads of both clients taking and releasing locks of their own in a loop, as an application
     * would while its connections are killed. A cycle that fails on the dead connection counts as
     * an error; a failed release is retried (retry-safe) so no hold is left behind.
     */
    private static final class Load {

        final AtomicLong cycles = new AtomicLong();
        final AtomicLong errors = new AtomicLong();
        final AtomicLong timeouts = new AtomicLong();
        private final AtomicBoolean stopped = new AtomicBoolean();
        private final List<LockClient> lockClients;
        private final List<Future<?>> threads = new ArrayList<>();

        Load(List<LockClient> lockClients) {
            this.lockClients = lockClients;
        }

        void start(ExecutorService pool) {
            for (int t = 0; t < LOAD_THREADS; t++) {
                // Each load lock is wanted by a thread of each client: releases go over pub/sub too.
                RedisLock lock = lockClients.get(t % lockClients.size()).getLock("kill:load:" + (t / 2));
                threads.add(pool.submit(() -> run(lock)));
            }
        }

        void stop() throws Exception {
            stopped.set(true);
            for (Future<?> thread : threads) {
                thread.get(30, TimeUnit.SECONDS);
            }
        }

        private Void run(RedisLock lock) throws InterruptedException {
            while (!stopped.get()) {
                try {
                    if (lock.tryLock(5, TimeUnit.SECONDS)) {
                        release(lock, errors);
                        cycles.incrementAndGet();
                    } else {
                        timeouts.incrementAndGet();
                    }
                } catch (LockException e) {
                    errors.incrementAndGet();
                }
            }
            return null;
        }
    }
}

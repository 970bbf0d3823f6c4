package io.distlock.core;

import io.distlock.test.RedisCluster;
import io.lettuce.core.cluster.SlotHash;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static io.distlock.test.Polling.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A master of a 3+3 Redis Cluster fails over while two clients lock and unlock names on every
 * shard: the engine follows the slots to the new master (MOVED, topology refresh), never lets two
 * holders overlap, keeps the locks held across the switch, and a waiter on the failed-over shard
 * is still woken by the release.
 */
@Timeout(180)
class ClusterFailoverTest {

    private static final int WORKERS = 4;
    private static final int NAMES = 200;

    private static RedisCluster cluster;

    @RegisterExtension
    final TestClients clients = new TestClients();

    @BeforeAll
    static void startCluster() {
        cluster = RedisCluster.start(3, 1);
    }

    @AfterAll
    static void stopCluster() {
        cluster.close();
    }

    @Test
    void aMasterFailoverUnderLoadKeepsLocksExclusiveAndWaitersWoken() throws Exception {
        List<LockClient> lockClients = List.of(clients.openCluster(cluster, b -> { }),
                clients.openCluster(cluster, b -> { }));
        String heldName = nameOnShard(0, "held:");
        RedisLock held = lockClients.get(0).getLock(heldName);
        held.lock();  // watchdog lease: 30 s
        CompletableFuture<Long> waiter = CompletableFuture.supplyAsync(() -> waitMillisFor(lockClients.get(1), heldName));
        awaitTrue("the waiter subscribed", Duration.ofSeconds(10), () -> lockClients.get(1).activeSubscriptions() == 1);

        ConcurrentHashMap<String, AtomicInteger> inside = new ConcurrentHashMap<>();
        AtomicInteger overlaps = new AtomicInteger();
        AtomicLong cycles = new AtomicLong();
        List<Throwable> errors = new java.util.concurrent.CopyOnWriteArrayList<>();
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService pool = Executors.newFixedThreadPool(WORKERS);
        List<Future<?>> workers = new ArrayList<>();
        try {
            for (int w = 0; w < WORKERS; w++) {
                LockClient client = lockClients.get(w % 2);
                int seed = w;
                workers.add(pool.submit(() -> {
                    for (int i = seed; !stop.get(); i += WORKERS) {
                        String name = "load:" + (i % NAMES);
                        RedisLock lock = client.getLock(name);
                        try {
                            if (lock.tryLock(10, TimeUnit.SECONDS)) {
                                try {
                                    if (inside.computeIfAbsent(name, n -> new AtomicInteger()).incrementAndGet() != 1) {
                                        overlaps.incrementAndGet();
                                    }
                                    inside.get(name).decrementAndGet();
                                    cycles.incrementAndGet();
                                } finally {
                                    lock.unlock();
                                }
                            }
                        } catch (InterruptedException e) {
                            return null;
                        } catch (RuntimeException e) {
                            errors.add(e);
                        }
                    }
                    return null;
                }));
            }
            awaitTrue("load is running", Duration.ofSeconds(10), () -> cycles.get() > 500);

            cluster.failover(0);

            long atFailover = cycles.get();
            awaitTrue("load goes on after the failover", Duration.ofSeconds(30), () -> cycles.get() > atFailover + 2000);
        } finally {
            stop.set(true);
            for (Future<?> worker : workers) {
                worker.get(30, TimeUnit.SECONDS);
            }
            pool.shutdownNow();
        }
        assertThat(overlaps.get()).as("overlapping holders").isZero();
        assertThat(errors).as("lock operations that failed across the failover").isEmpty();

        assertThat(held.isLocked()).as("the lock held across the failover is still there").isTrue();
        assertThat(waiter).isNotDone();
        long releasedAt = System.nanoTime();
        held.unlock();
        waiter.get(30, TimeUnit.SECONDS);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - releasedAt))
                .as("the waiter on the failed-over shard is woken by the release, not the 30 s lease")
                .isLessThan(5_000);
    }

    private static String nameOnShard(int shard, String prefix) {
        for (int i = 0; ; i++) {
            if (cluster.shardOf(SlotHash.getSlot("distlock:{" + prefix + i + "}")) == shard) {
                return prefix + i;
            }
        }
    }

    private static long waitMillisFor(LockClient client, String name) {
        RedisLock lock = client.getLock(name);
        long start = System.nanoTime();
        try {
            assertThat(lock.tryLock(90, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
        lock.unlock();
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }
}

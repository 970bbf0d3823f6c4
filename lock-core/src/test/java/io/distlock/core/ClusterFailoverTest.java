package io.distlock.core;

import io.distlock.test.RedisCluster;
import io.lettuce.core.cluster.SlotHash;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import static io.distlock.test.Polling.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A master of a 3+3 Redis Cluster fails over while two clients lock and unlock names on every
 * shard: the engine follows the slots to the new master (MOVED, topology refresh), never lets two
 * holders overlap, keeps the locks held across the switch, and a waiter on the failed-over shard
 * is still woken by the release. Once by a manual failover, once by killing the master.
 */
@Timeout(180)
class ClusterFailoverTest {

    private static final int WORKERS = 4;
    private static final int NAMES = 200;
    /** Longer than the election after a crash, so no operation fails only for waiting on it. */
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(10);

    /** The waiter's pause before trying again after a failed attempt, as an application's retry would. */
    private static final long WAITER_RETRY_PAUSE_MILLIS = 50;

    private RedisCluster cluster;
    /** The waiter's failed acquisitions, and when each of them began ({@link System#nanoTime()}). */
    private final List<Throwable> waiterFailures = new CopyOnWriteArrayList<>();
    private final List<Long> waiterFailuresBegunAt = new CopyOnWriteArrayList<>();
    /** When the load had locked every name after the failover: the clients had switched. */
    private long switchedAt;

    @RegisterExtension
    final TestClients clients = new TestClients();

    @BeforeEach
    void startCluster() {
        cluster = RedisCluster.start(3, 1);
    }

    @AfterEach
    void stopCluster() {
        cluster.close();
    }

    @Test
    void aManualFailoverUnderLoadKeepsLocksExclusiveAndWaitersWoken() throws Exception {
        List<Throwable> duringSwitch = survives(() -> cluster.failover(0));
        assertThat(duringSwitch).as("a manual failover fails no lock operation").isEmpty();
        assertThat(waiterFailures).as("nor the waiter's").isEmpty();
    }

    @Test
    void aKilledMasterIsReplacedUnderLoadAndWaitersOnItsSlotsAreStillWoken() throws Exception {
        List<Throwable> duringSwitch = survives(() -> cluster.killMaster(0));
        // Until the replica is elected and the clients learn of it, commands for the dead master's
        // slots fail: those in flight at the crash (their outcome unknown), and those sent while
        // Lettuce knows its connection is broken (it fails them at once rather than queue them for
        // a node that may never come back). Either way a LockException, never a hang, and never
        // once the clients have switched.
        assertThat(duringSwitch).allSatisfy(error -> assertThat(error).isInstanceOf(LockException.class));
        assertThat(waiterFailures).allSatisfy(error -> assertThat(error).isInstanceOf(LockException.class));
        assertThat(waiterFailuresBegunAt).as("the waiter's acquisitions begun once the clients had switched fail not")
                .allSatisfy(begunAt -> assertThat(begunAt - switchedAt).isNegative());
    }

    /**
     * Runs load across a failover; checks exclusion throughout and that operations succeed after
     * it, the held lock survives and its waiter is woken by the release.
     *
     * @return the operations that failed while the cluster switched over
     */
    private List<Throwable> survives(Runnable failover) throws Exception {
        List<LockClient> lockClients = List.of(
                clients.openCluster(cluster, b -> b.commandTimeout(COMMAND_TIMEOUT)),
                clients.openCluster(cluster, b -> b.commandTimeout(COMMAND_TIMEOUT)));
        String heldName = nameOnShard(0, "held:");
        RedisLock held = lockClients.get(0).getLock(heldName);
        held.lock();  // watchdog lease: 30 s
        awaitTrue("the held lock reached the replica", Duration.ofSeconds(10),
                () -> "1".equals(cluster.replicasOf(0).get(0).commandString("DBSIZE")));
        CompletableFuture<Void> waiter = CompletableFuture.runAsync(() -> lockAndUnlock(lockClients.get(1), heldName));
        awaitTrue("the waiter subscribed", Duration.ofSeconds(10), () -> lockClients.get(1).activeSubscriptions() == 1);

        List<Throwable> duringSwitch;
        try (Load load = new Load(lockClients)) {
            awaitTrue("load is running", Duration.ofSeconds(10), () -> load.cycles.get() > 300);
            failover.run();
            long failedOver = System.nanoTime();
            awaitTrue("every name was locked again after the failover", Duration.ofSeconds(60),
                    () -> load.everyNameLockedSince(failedOver));
            switchedAt = System.nanoTime();
            duringSwitch = List.copyOf(load.errors);
            load.errors.clear();
            long settled = System.nanoTime();
            awaitTrue("every name was locked again on the new topology", Duration.ofSeconds(60),
                    () -> load.everyNameLockedSince(settled));
            load.stop();
            assertThat(load.overlaps.get()).as("overlapping holders").isZero();
            assertThat(load.errors).as("lock operations that failed once the cluster had switched").isEmpty();
        }

        assertThat(held.isLocked()).as("the lock held across the failover is still there").isTrue();
        assertThat(waiter).isNotDone();
        long releasedAt = System.nanoTime();
        held.unlock();
        waiter.get(30, TimeUnit.SECONDS);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - releasedAt))
                .as("the waiter on the failed-over shard is woken by the release, not the 30 s lease")
                .isLessThan(10_000);
        return duringSwitch;
    }

    private String nameOnShard(int shard, String prefix) {
        for (int i = 0; ; i++) {
            if (cluster.shardOf(SlotHash.getSlot("distlock:{" + prefix + i + "}")) == shard) {
                return prefix + i;
            }
        }
    }

    /**
     * Waits for the lock; an attempt that fails (on a killed node) is tried again after a pause.
     */
    private void lockAndUnlock(LockClient client, String name) {
        RedisLock lock = client.getLock(name);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (true) {
            long begunAt = System.nanoTime();
            try {
                assertThat(lock.tryLock(deadline - begunAt, TimeUnit.NANOSECONDS)).isTrue();
                lock.unlock();
                return;
            } catch (LockException e) {
                waiterFailuresBegunAt.add(begunAt);
                waiterFailures.add(e);
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(WAITER_RETRY_PAUSE_MILLIS));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** Worker threads locking names of every shard, recording overlaps, cycles and failures. */
    private static final class Load implements AutoCloseable {
        final ConcurrentHashMap<String, AtomicInteger> inside = new ConcurrentHashMap<>();
        final AtomicInteger overlaps = new AtomicInteger();
        final AtomicLong cycles = new AtomicLong();
        final ConcurrentHashMap<String, Long> lastLocked = new ConcurrentHashMap<>();
        final List<Throwable> errors = new CopyOnWriteArrayList<>();
        private final AtomicBoolean stop = new AtomicBoolean();
        private final ExecutorService pool = Executors.newFixedThreadPool(WORKERS);
        private final List<Future<?>> workers = new ArrayList<>();

        Load(List<LockClient> lockClients) {
            for (int w = 0; w < WORKERS; w++) {
                LockClient client = lockClients.get(w % lockClients.size());
                int first = w;
                workers.add(pool.submit(() -> run(client, first)));
            }
        }

        private Void run(LockClient client, int first) {
            for (int i = first; !stop.get(); i += WORKERS) {
                String name = "load:" + (i % NAMES);
                RedisLock lock = client.getLock(name);
                try {
                    if (lock.tryLock(20, TimeUnit.SECONDS)) {
                        try {
                            AtomicInteger holders = inside.computeIfAbsent(name, n -> new AtomicInteger());
                            if (holders.incrementAndGet() != 1) {
                                overlaps.incrementAndGet();
                            }
                            LockSupport.parkNanos(200_000);  // stay inside a moment, so an overlap would show
                            holders.decrementAndGet();
                            cycles.incrementAndGet();
                            lastLocked.put(name, System.nanoTime());
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
        }

        boolean everyNameLockedSince(long nanoTime) {
            return lastLocked.size() == NAMES && lastLocked.values().stream().allMatch(at -> at - nanoTime > 0);
        }

        void stop() throws Exception {
            stop.set(true);
            for (Future<?> worker : workers) {
                worker.get(60, TimeUnit.SECONDS);
            }
        }

        @Override
        public void close() {
            stop.set(true);
            pool.shutdownNow();
        }
    }
}

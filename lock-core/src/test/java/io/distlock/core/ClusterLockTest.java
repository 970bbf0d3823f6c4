package io.distlock.core;

import io.distlock.test.RedisCluster;
import io.distlock.test.RedisServer;
import io.distlock.test.RespConnection;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.distlock.test.Polling.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The engine on a real Redis Cluster of three masters with a replica each: locks whose keys live
 * on every node, wake-ups by message (sharded pub/sub on Redis 7, plain pub/sub on 6.2), and
 * watchdog batches cut per slot so no script ever fails with CROSSSLOT. Failover is
 * {@link ClusterFailoverTest}'s.
 */
@Timeout(120)
class ClusterLockTest {

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

    @AfterEach
    void emptyCluster() {
        cluster.flushAll();
    }

    @Test
    void locksOnNamesOfEverySlotRangeLiveOnEveryNode() throws Exception {
        LockClient client = clients.openCluster(cluster, b -> { });
        List<RedisLock> locks = new ArrayList<>();
        Set<Integer> nodesUsed = new HashSet<>();
        Set<Integer> slotsUsed = new HashSet<>();
        for (int i = 0; i < 3000; i++) {
            RedisLock lock = client.getLock("order:" + i);
            assertThat(lock.tryLock(5, 30, TimeUnit.SECONDS)).isTrue();
            locks.add(lock);
            int slot = SlotHash.getSlot("distlock:{order:" + i + "}");
            slotsUsed.add(slot);
            nodesUsed.add(cluster.shardOf(slot));
        }
        assertThat(nodesUsed).containsExactlyInAnyOrder(0, 1, 2);
        assertThat(slotsUsed).as("distinct slots among 3000 names").hasSizeGreaterThan(2500);
        for (RedisServer node : cluster.nodes()) {
            assertThat(Long.parseLong(node.commandString("DBSIZE"))).as("keys on " + node).isGreaterThan(800);
        }
        RedisLock other = clients.openCluster(cluster, b -> { }).getLock("order:7");
        assertThat(CompletableFuture.supplyAsync(other::tryLock).get(10, TimeUnit.SECONDS)).isFalse();
        for (RedisLock lock : locks) {
            lock.unlock();
        }
        for (RedisServer node : cluster.nodes()) {
            assertThat(KeysLeft.in(node)).isEmpty();
        }
    }

    @Test
    void aWaiterInAnotherClientIsWokenByTheReleaseNotByTheLease() throws Exception {
        LockClient holderClient = clients.openCluster(cluster, b -> { });
        LockClient waiterClient = clients.openCluster(cluster, b -> { });
        for (String name : List.of("order:7", "stock:apple", "user:x")) {  // different slots and nodes
            RedisLock held = holderClient.getLock(name);
            held.lock();  // watchdog lease: 30 s
            CompletableFuture<Long> waited = CompletableFuture.supplyAsync(() -> {
                RedisLock lock = waiterClient.getLock(name);
                long start = System.nanoTime();
                try {
                    assertThat(lock.tryLock(20, TimeUnit.SECONDS)).isTrue();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                lock.unlock();
                return millis;
            });
            awaitTrue("the waiter subscribed", Duration.ofSeconds(10), () -> waiterClient.activeSubscriptions() == 1);
            long releasedAt = System.nanoTime();
            held.unlock();
            assertThat(waited.get(20, TimeUnit.SECONDS)).isLessThan(20_000);
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - releasedAt))
                    .as("woken by the message, long before the 30 s lease").isLessThan(5_000);
        }
    }

    /** Semaphores on names of every node: renewed by the watchdog, a waiter woken by a release. */
    @Test
    void semaphoresOfEverySlotAreRenewedAndWakeTheirWaiters() throws Exception {
        Duration watchdog = Duration.ofSeconds(1);
        LockClient holderClient = clients.openCluster(cluster, b -> b.watchdogTimeout(watchdog));
        LockClient waiterClient = clients.openCluster(cluster, b -> { });
        List<String> names = List.of("order:7", "stock:apple", "user:x");  // different slots and nodes
        List<RedisSemaphore> held = new ArrayList<>();
        for (String name : names) {
            RedisSemaphore semaphore = holderClient.getSemaphore(name, 2);
            semaphore.acquire();
            assertThat(semaphore.tryAcquire()).isTrue();
            held.add(semaphore);
        }
        Thread.sleep(3 * watchdog.toMillis());  // three leases: only renewals keep the permits
        List<CompletableFuture<Boolean>> waiting = new ArrayList<>();
        for (String name : names) {
            waiting.add(waiterClient.getSemaphore(name, 2).tryAcquireAsync(30, -1, TimeUnit.SECONDS, "waiter"));
        }
        awaitTrue("the waiters sleep", Duration.ofSeconds(10), () -> waiterClient.activeSubscriptions() == 3);
        for (CompletableFuture<Boolean> waiter : waiting) {
            assertThat(waiter).as("no permit freed by an ended lease").isNotDone();
        }
        for (int i = 0; i < names.size(); i++) {
            held.get(i).release();
            assertThat(waiting.get(i).get(10, TimeUnit.SECONDS)).isTrue();
            waiterClient.getSemaphore(names.get(i), 2).releaseAsync("waiter").get(10, TimeUnit.SECONDS);
            held.get(i).release();
        }
        for (RedisServer node : cluster.nodes()) {
            assertThat(KeysLeft.in(node)).isEmpty();
        }
    }

    @Test
    void theWatchdogRenewsLocksOfEveryKindAndSlotWithoutCrossSlotErrors() {
        RecordingListener events = new RecordingListener();
        Duration lease = Duration.ofSeconds(2);
        LockClient client = clients.openCluster(cluster, b -> b.watchdogTimeout(lease).listener(events));
        List<RedisLock> locks = new ArrayList<>();
        for (int i = 0; i < 200; i++) {  // every kind renews in batches per slot
            String name = "job:" + i;
            RedisLock lock = switch (i % 5) {
                case 0 -> client.getLock(name);
                case 1 -> client.getFairLock(name);
                case 2 -> client.getFencedLock(name);
                case 3 -> client.getReadWriteLock(name).readLock();
                default -> client.getReadWriteLock(name).writeLock();
            };
            lock.lock();
            locks.add(lock);
        }
        long until = System.nanoTime() + lease.multipliedBy(3).toNanos();
        awaitTrue("three watchdog timeouts passed", Duration.ofSeconds(30), () -> System.nanoTime() > until);

        assertThat(events.renewalFailed).as("no renewal failed (CROSSSLOT would)").isEmpty();
        assertThat(events.lost).isEmpty();
        assertThat(events.renewed.size()).isGreaterThanOrEqualTo(200 * 6);
        assertThat(locks).allSatisfy(lock -> assertThat(lock.isHeldByCurrentThread()).isTrue());
        locks.forEach(RedisLock::unlock);
    }

    @Test
    void everyLockKindWorksOnTheCluster() throws Exception {
        LockClient client = clients.openCluster(cluster, b -> { });
        LockClient other = clients.openCluster(cluster, b -> { });
        List<String> names = new ArrayList<>(List.of("a{b}c", "{x}", "x}y", "{", "tag{}"));  // braces in names too
        for (int i = 0; i < 20; i++) {
            names.add("kind:" + i);  // names on every node
        }
        for (String name : names) {
            RedisLock fair = client.getFairLock(name);
            fair.lock();
            assertThat(CompletableFuture.supplyAsync(() -> other.getFairLock(name).tryLock())
                    .get(10, TimeUnit.SECONDS)).isFalse();
            fair.unlock();
            RedisReadWriteLock rw = client.getReadWriteLock("rw:" + name);
            rw.writeLock().lock();
            rw.readLock().lock();
            rw.writeLock().unlock();
            rw.readLock().unlock();
            FencedLock fenced = client.getFencedLock("fenced:" + name);
            assertThat(fenced.lockAndGetToken()).isPositive();
            fenced.unlock();
        }
        long keys = cluster.nodes().stream().mapToLong(node -> KeysLeft.in(node).size()).sum();
        assertThat(keys).as("only the fence counters are left").isEqualTo(names.size());
    }

    @Test
    void withReplicaAcksEachAcquisitionWaitsForTheReplicaOfItsOwnShard() throws Exception {
        LockClient client = clients.openCluster(cluster, b -> b.replicaAcks(1, Duration.ofMillis(500)));
        for (int i = 0; i < 30; i++) {
            String name = "acked:" + i;
            RedisLock lock = client.getLock(name);
            lock.lock();
            RedisServer replica = cluster.replicasOf(cluster.shardOf(SlotHash.getSlot("distlock:{" + name + "}"))).get(0);
            try (RespConnection onReplica = replica.connect(Duration.ofSeconds(5))) {
                onReplica.call("READONLY");  // a cluster replica answers key reads only after READONLY
                assertThat(onReplica.call("EXISTS", "distlock:{" + name + "}")).as(name + " on " + replica).isEqualTo(1L);
            }
            lock.unlock();
        }
        RedisServer paused = cluster.replicasOf(1).get(0);
        paused.pause();
        int refused = 0;
        try {
            for (int i = 0; i < 30; i++) {
                RedisLock lock = client.getLock("acked:" + i);
                if (cluster.shardOf(SlotHash.getSlot("distlock:{acked:" + i + "}")) == 1) {
                    assertThatThrownBy(lock::tryLock).isInstanceOf(LockException.class)
                            .hasMessageContaining("only 0 of 1 replicas");
                    refused++;
                } else {
                    assertThat(lock.tryLock()).as("shards whose replica is up are not held back").isTrue();
                    lock.unlock();
                }
            }
        } finally {
            paused.resume();
        }
        assertThat(refused).as("names on the paused replica's shard").isGreaterThan(3);
    }

    @Test
    void clientsOnSeveralThreadsNeverOverlap() throws Exception {
        List<LockClient> lockClients = List.of(clients.openCluster(cluster, b -> { }),
                clients.openCluster(cluster, b -> { }));
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger maxInside = new AtomicInteger();
        int[] counter = new int[1];
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (int w = 0; w < 6; w++) {
                LockClient client = lockClients.get(w % 2);
                workers.add(pool.submit(() -> {
                    RedisLock lock = client.getLock("counter");
                    for (int i = 0; i < 100; i++) {
                        lock.lock();
                        try {
                            maxInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
                            counter[0]++;
                            inside.decrementAndGet();
                        } finally {
                            lock.unlock();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> worker : workers) {
                worker.get(90, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(maxInside.get()).isEqualTo(1);
        assertThat(counter[0]).isEqualTo(600);
    }

    @Test
    void aClusterClientGivenByTheCallerStaysOpen() {
        RedisClusterClient own = RedisClusterClient.create(RedisURI.create(cluster.seedUri()));
        try {
            LockClient client = LockClient.builder().clusterClient(own).build();
            RedisLock lock = client.getLock("own");
            lock.lock();
            lock.unlock();
            client.close();
            try (var connection = own.connect()) {
                assertThat(connection.sync().ping()).isEqualTo("PONG");
            }
        } finally {
            own.shutdown();
        }
    }
}

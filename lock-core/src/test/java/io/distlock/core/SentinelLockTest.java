package io.distlock.core;

import io.distlock.test.RedisSentinel;
import io.distlock.test.RedisServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.distlock.test.Polling.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The engine on a Sentinel-managed Redis (one master, one replica, three Sentinels): clients find
 * the master through the Sentinels, keep working across a forced failover, and can make every
 * acquisition wait for a replica's acknowledgement.
 */
@Timeout(180)
class SentinelLockTest {

    private static RedisSentinel sentinel;

    @RegisterExtension
    final TestClients clients = new TestClients();

    @BeforeAll
    static void startSentinel() {
        sentinel = RedisSentinel.start(1, 3);
    }

    @AfterAll
    static void stopSentinel() {
        sentinel.close();
    }

    @AfterEach
    void emptyMaster() {
        sentinel.flushAll();
    }

    @Test
    void locksSurviveAForcedFailoverAndAWaiterIsStillWokenByTheRelease() throws Exception {
        LockClient holderClient = clients.openSentinel(sentinel, b -> { });
        LockClient waiterClient = clients.openSentinel(sentinel, b -> { });
        RedisLock held = holderClient.getLock("order:1");
        held.lock();  // watchdog lease: 30 s
        CompletableFuture<Boolean> waiter = CompletableFuture.supplyAsync(() -> {
            RedisLock lock = waiterClient.getLock("order:1");
            try {
                boolean acquired = lock.tryLock(90, TimeUnit.SECONDS);
                if (acquired) {
                    lock.unlock();
                }
                return acquired;
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        awaitTrue("the waiter subscribed", Duration.ofSeconds(10), () -> waiterClient.activeSubscriptions() == 1);
        RedisServer replica = sentinel.replicas().get(0);
        awaitTrue("the lock reached the replica", Duration.ofSeconds(10),
                () -> "1".equals(replica.commandString("EXISTS", "distlock:{order:1}")));

        RedisServer promoted = sentinel.failover();

        assertThat(promoted).isSameAs(replica);
        assertThat(held.isLocked()).as("still locked, seen through the new master").isTrue();
        assertThat(held.isHeldByCurrentThread()).isTrue();
        assertThat(waiter).as("the waiter still waits").isNotDone();
        long releasedAt = System.nanoTime();
        held.unlock();
        assertThat(waiter.get(30, TimeUnit.SECONDS)).isTrue();
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - releasedAt))
                .as("woken by the release on the new master, long before the 30 s lease").isLessThan(10_000);

        for (int i = 0; i < 50; i++) {
            RedisLock lock = holderClient.getLock("after:" + i);
            assertThat(lock.tryLock(5, 30, TimeUnit.SECONDS)).isTrue();
            assertThat(waiterClient.getLock("after:" + i).tryLock()).isFalse();
            lock.unlock();
        }
        assertThat(KeysLeft.in(promoted)).isEmpty();
    }

    @Test
    void withReplicaAcksAnAcquisitionNoReplicaConfirmsFailsAndLeavesNothingBehind() throws Exception {
        LockClient client = clients.openSentinel(sentinel, b -> b.replicaAcks(1, Duration.ofMillis(500)));
        RedisServer master = sentinel.master();
        RedisServer replica = sentinel.replicas().get(0);
        RedisLock lock = client.getLock("acked");
        lock.lock();
        assertThat(replica.commandString("EXISTS", "distlock:{acked}"))
                .as("the replica has the lock as soon as lock() returns").isEqualTo("1");

        replica.pause();
        try {
            long start = System.nanoTime();
            RedisLock unconfirmed = client.getLock("unconfirmed");
            assertThatThrownBy(() -> unconfirmed.tryLock(1, TimeUnit.SECONDS))
                    .isInstanceOf(LockException.class)
                    .hasMessageContaining("only 0 of 1 replicas acknowledged it within 500 ms")
                    .hasMessageContaining("released again");
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(3_000);
            assertThat(master.commandString("EXISTS", "distlock:{unconfirmed}")).isEqualTo("0");
            assertThat(unconfirmed.isHeldByCurrentThread()).isFalse();

            lock.unlock();  // done on the master; the missing acknowledgement is only logged
            assertThat(master.commandString("EXISTS", "distlock:{acked}")).isEqualTo("0");
        } finally {
            replica.resume();
        }
        awaitTrue("the replica caught up", Duration.ofSeconds(10),
                () -> replica.commandString("INFO", "replication").contains("master_link_status:up"));
        RedisLock again = client.getLock("unconfirmed");
        assertThat(again.tryLock(5, TimeUnit.SECONDS)).isTrue();
        again.unlock();
        assertThat(client.watchdogHoldCount()).isZero();
    }

    /**
     * Two overlapping acquisitions of one holder: the second finds the first's hold and counts 2,
     * but no replica has that hold either, so it must wait for the replicas too, and fail.
     */
    @Test
    void withReplicaAcksAnOverlappingAcquisitionOfTheSameHolderWaitsForTheReplicasToo() throws Exception {
        LockClient client = clients.openSentinel(sentinel, b -> b.replicaAcks(1, Duration.ofMillis(500)));
        RedisServer replica = sentinel.replicas().get(0);
        RedisLock lock = client.getLock("overlapping");
        replica.pause();
        try {
            CompletableFuture<Boolean> first = lock.tryLockAsync(0, 10, TimeUnit.SECONDS, "h");
            CompletableFuture<Boolean> second = lock.tryLockAsync(0, 10, TimeUnit.SECONDS, "h");
            for (CompletableFuture<Boolean> attempt : List.of(first, second)) {
                assertThatThrownBy(() -> attempt.get(5, TimeUnit.SECONDS))
                        .as("no replica has the hold").hasCauseInstanceOf(LockException.class);
            }
            assertThat(sentinel.master().commandString("EXISTS", "distlock:{overlapping}")).isEqualTo("0");
        } finally {
            replica.resume();
        }
        awaitTrue("the replica caught up", Duration.ofSeconds(10),
                () -> replica.commandString("INFO", "replication").contains("master_link_status:up"));
    }

    /** A holder's second permit is one fewer for everyone else: unless a replica has it, it is given back. */
    @Test
    void withReplicaAcksASemaphoreHoldersSecondPermitWaitsForTheReplicas() throws Exception {
        LockClient client = clients.openSentinel(sentinel, b -> b.replicaAcks(1, Duration.ofMillis(500)));
        RedisServer replica = sentinel.replicas().get(0);
        RedisSemaphore semaphore = client.getSemaphore("acked-permits", 2);
        semaphore.acquire();
        replica.pause();
        try {
            assertThatThrownBy(() -> semaphore.tryAcquire(1, TimeUnit.SECONDS))
                    .isInstanceOf(LockException.class).hasMessageContaining("released again");
            assertThat(sentinel.master().commandString("HGET", "distlock:{acked-permits}:sem", "#used"))
                    .as("the second permit was given back").isEqualTo("1");
            assertThat(semaphore.heldPermits()).isEqualTo(1);
        } finally {
            replica.resume();
        }
        awaitTrue("the replica caught up", Duration.ofSeconds(10),
                () -> replica.commandString("INFO", "replication").contains("master_link_status:up"));
        semaphore.release();
    }

    @Test
    void anAcknowledgementOnAReplacedConnectionDoesNotCount() throws Exception {
        LockClient client = clients.openSentinel(sentinel, b -> b.replicaAcks(1, Duration.ofMillis(1500)));
        RedisServer master = sentinel.master();
        RedisServer replica = sentinel.replicas().get(0);
        CompletableFuture<Boolean> attempt;
        replica.pause();
        try {
            attempt = CompletableFuture.supplyAsync(() -> {
                try {
                    return client.getLock("replaced").tryLock(5, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            awaitTrue("the acquisition waits in WAIT", Duration.ofSeconds(10),
                    () -> master.commandString("CLIENT", "LIST").contains("cmd=wait"));
            master.command("CLIENT", "KILL", "TYPE", "normal");  // spares the fixture's own connection
        } finally {
            replica.resume();
        }
        // A WAIT sent again on the new connection answers at once (that connection wrote nothing);
        // it must not count as the replicas having the lock.
        assertThatThrownBy(() -> attempt.get(15, TimeUnit.SECONDS)).cause()
                .isInstanceOf(LockException.class).hasMessageContaining("released again");
        assertThat(master.commandString("EXISTS", "distlock:{replaced}")).isEqualTo("0");
    }
}

package io.distlock.core;

import io.distlock.test.RedisCluster;
import io.distlock.test.RedisServer;
import io.lettuce.core.cluster.SlotHash;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

import static io.distlock.test.Polling.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The watchdog when one renewal call gets no answer: on a Redis Cluster of three masters, one
 * master stops answering its clients ({@code CLIENT PAUSE}; the cluster bus goes on, so the
 * cluster stays healthy). The renewal calls to that node hang; every other node's holds must go on
 * being renewed, and the holds on the silent node must be reported before their leases can end.
 */
@Timeout(120)
class WatchdogStallTest {

    private static final Duration LEASE = Duration.ofSeconds(3);
    /** Far beyond the lease: only the watchdog's own deadline can end a renewal call to the silent node. */
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration STALL = LEASE.multipliedBy(3);
    private static final int LOCKS_PER_NODE = 4;

    private static RedisCluster cluster;

    @RegisterExtension
    final TestClients clients = new TestClients();

    @BeforeAll
    static void startCluster() {
        cluster = RedisCluster.start(3);
    }

    @AfterAll
    static void stopCluster() {
        cluster.close();
    }

    @Test
    void aNodeThatStopsAnsweringStopsNeitherTheOtherRenewalsNorTheReportOfItsOwn() {
        RecordingListener events = new RecordingListener();
        LockClient client = clients.openCluster(cluster,
                b -> b.watchdogTimeout(LEASE).commandTimeout(COMMAND_TIMEOUT).listener(events));
        List<String> silentNames = namesOnShard(0);
        List<RedisLock> silentLocks = silentNames.stream().map(client::getLock).toList();
        List<RedisLock> healthyLocks = new ArrayList<>();
        namesOnShard(1).forEach(name -> healthyLocks.add(client.getLock(name)));
        namesOnShard(2).forEach(name -> healthyLocks.add(client.getLock(name)));
        silentLocks.forEach(RedisLock::lock);
        healthyLocks.forEach(RedisLock::lock);

        // The silent node's leases end no earlier than this (renewals after the read only extend them).
        long readAt = System.nanoTime();
        long shortestSilentLease = silentLocks.stream().mapToLong(RedisLock::remainingTimeToLive).min().orElseThrow();
        long silentLeasesEndAt = readAt + Duration.ofMillis(shortestSilentLease).toNanos();
        RedisServer silent = cluster.nodes().get(0);
        long stallEndsAt = System.nanoTime() + STALL.toNanos();
        silent.command("CLIENT", "PAUSE", Long.toString(STALL.toMillis()));

        awaitTrue("every hold on the silent node reported failed before its lease could end",
                Duration.ofNanos(silentLeasesEndAt - System.nanoTime()),
                () -> namesOf(events.renewalFailed).containsAll(silentNames));
        assertThat(events.renewalFailed).as("reports of renewals without an answer")
                .allSatisfy(e -> assertThat(e.cause()).isInstanceOf(TimeoutException.class));

        awaitTrue("the node was silent for " + STALL.toMillis() + " ms", STALL.multipliedBy(2), () -> {
            for (RedisLock lock : healthyLocks) {
                assertThat(lock.remainingTimeToLive()).as("lease of %s on an answering node", lock.getName())
                        .isGreaterThan(LEASE.toMillis() / 3);
            }
            return System.nanoTime() > stallEndsAt;
        });
        Set<String> healthyNames = healthyLocks.stream().map(RedisLock::getName).collect(Collectors.toSet());
        assertThat(namesOf(events.lost)).as("holds lost").doesNotContainAnyElementsOf(healthyNames);
        assertThat(namesOf(events.renewalFailed)).as("holds whose renewal failed")
                .doesNotContainAnyElementsOf(healthyNames);

        // Silent for three leases, the node let those leases run out: once it answers again, the
        // watchdog (not stuck on the old calls) finds them gone.
        awaitTrue("the silent node's holds are found lost once it answers", LEASE.multipliedBy(3),
                () -> namesOf(events.lost).containsAll(silentNames));
        healthyLocks.forEach(RedisLock::unlock);
    }

    /** @return names of locks whose keys live on the given shard */
    private static List<String> namesOnShard(int shard) {
        List<String> names = new ArrayList<>();
        for (int i = 0; names.size() < LOCKS_PER_NODE; i++) {
            String name = "stall:" + i;
            if (cluster.shardOf(SlotHash.getSlot("distlock:{" + name + "}")) == shard) {
                names.add(name);
            }
        }
        return names;
    }

    private static Set<String> namesOf(List<LockEvent> events) {
        return events.stream().map(LockEvent::lockName).collect(Collectors.toSet());
    }
}

package io.distlock.test;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The Sentinel and Cluster fixtures build the topologies they promise and fail over on request. */
@Timeout(120)
class TopologyFixturesTest {

    @Test
    void aSentinelSetFailsOverToItsReplicaAndKeepsTheData() {
        try (RedisSentinel set = RedisSentinel.start(1, 3)) {
            RedisServer master = set.master();
            assertThat(set.replicas()).hasSize(1);
            assertThat(set.sentinelUri()).startsWith("redis-sentinel://").endsWith("#" + RedisSentinel.MASTER_NAME);
            master.command("SET", "k", "v");
            assertThat(master.command("WAIT", "1", "5000")).as("replicas that have the key").isEqualTo(1L);

            RedisServer promoted = set.failover();

            assertThat(promoted).isNotSameAs(master);
            assertThat(set.master()).isSameAs(promoted);
            assertThat(set.replicas()).containsExactly(master);
            assertThat(promoted.commandString("GET", "k")).isEqualTo("v");
            assertThat(master.commandString("INFO", "replication")).contains("role:slave");
        }
    }

    @Test
    void aClusterWithReplicasFailsOverOneShard() {
        try (RedisCluster cluster = RedisCluster.start(3, 1)) {
            assertThat(cluster.nodes()).hasSize(3);
            assertThat(cluster.replicas()).hasSize(3);
            assertThat(cluster.allServers()).hasSize(6);
            RedisServer oldMaster = cluster.nodes().get(0);
            RedisServer replica = cluster.replicas().get(0);
            assertThat(replica.commandString("INFO", "replication")).contains("master_port:" + oldMaster.port());

            cluster.failover(0);

            assertThat(cluster.nodes().get(0)).isSameAs(replica);
            assertThat(cluster.replicas().get(0)).isSameAs(oldMaster);
            assertThat(replica.commandString("INFO", "replication")).contains("role:master");
            assertThat(oldMaster.commandString("INFO", "replication")).contains("role:slave");
            cluster.flushAll();

            RedisServer survivor = cluster.replicasOf(1).get(0);
            assertThat(cluster.killMaster(1)).isSameAs(survivor);
            assertThat(cluster.nodes().get(1)).isSameAs(survivor);
            assertThat(cluster.replicasOf(1)).isEmpty();
        }
    }
}

package io.distlock.core.internal.engine;

import io.distlock.test.RedisCluster;
import io.distlock.test.RedisExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static io.distlock.test.Polling.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Only real drops count: a killed connection does, the short-lived connections a cluster
 * topology refresh opens and closes do not (else a release or a replica acknowledgement would
 * be doubted for nothing).
 */
@Timeout(60)
class ConnectionDropsTest {

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    @Test
    void aKilledConnectionCountsAsADrop() {
        try (RedisConnections connections = RedisConnections.standalone(RedisClient.create(redis.server().uri()), true, Duration.ofSeconds(5))) {
            assertThat(connections.drops()).isZero();
            redis.server().command("CLIENT", "KILL", "TYPE", "normal");
            awaitTrue("the drop was counted", Duration.ofSeconds(10), () -> connections.drops() >= 1);
        }
    }

    @Test
    void connectionsATopologyRefreshClosesOnPurposeAreNoDrops() throws Exception {
        try (RedisCluster cluster = RedisCluster.start(3);
             RedisConnections connections = RedisConnections.cluster(
                     RedisClusterClient.create(RedisURI.create(cluster.seedUri())), true, Duration.ofSeconds(5))) {
            for (int i = 0; i < 3; i++) {
                connections.refreshTopology().toCompletableFuture().get(10, TimeUnit.SECONDS);
            }
            assertThat(connections.drops()).isZero();
        }
    }
}

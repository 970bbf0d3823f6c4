package io.distlock.core;

import io.distlock.test.RedisCluster;
import io.distlock.test.RedisSentinel;
import io.distlock.test.RedisServer;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Opens {@link LockClient}s against a test server and closes them all after each test. Register
 * it as an instance field: {@code @RegisterExtension final TestClients clients = new TestClients();}
 */
final class TestClients implements AfterEachCallback, AutoCloseable {

    private final List<LockClient> clients = new ArrayList<>();

    LockClient open(RedisServer server) {
        return open(server, builder -> { });
    }

    LockClient open(RedisServer server, Consumer<LockClient.Builder> settings) {
        return open(LockClient.builder().redisUri(server.uri()), settings);
    }

    LockClient openCluster(RedisCluster cluster, Consumer<LockClient.Builder> settings) {
        return open(LockClient.builder()
                .clusterNodes(cluster.nodes().stream().map(node -> RedisURI.create(node.uri())).toList()), settings);
    }

    /** A client that finds the master through the Sentinels, as applications do. */
    LockClient openSentinel(RedisSentinel sentinel, Consumer<LockClient.Builder> settings) {
        return open(LockClient.builder().redisUri(sentinel.sentinelUri()), settings);
    }

    private LockClient open(LockClient.Builder builder, Consumer<LockClient.Builder> settings) {
        builder.commandTimeout(Duration.ofSeconds(2));
        settings.accept(builder);
        LockClient client = builder.build();
        clients.add(client);
        return client;
    }

    @Override
    public void afterEach(ExtensionContext context) {
        close();
    }

    @Override
    public void close() {
        clients.forEach(LockClient::close);
        clients.clear();
    }
}

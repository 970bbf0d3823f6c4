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
 * Shared with other modules' tests through lock-core's test jar.
 */
public final class TestClients implements AfterEachCallback, AutoCloseable {

    private final List<LockClient> clients = new ArrayList<>();

    /**
     * @param server the server to connect to
     * @return a client with a 2 s command timeout, closed after the test
     */
    public LockClient open(RedisServer server) {
        return open(server, builder -> { });
    }

    /**
     * @param server   the server to connect to
     * @param settings changes to the builder (a 2 s command timeout is preset)
     * @return the client, closed after the test
     */
    public LockClient open(RedisServer server, Consumer<LockClient.Builder> settings) {
        return open(LockClient.builder().redisUri(server.uri()), settings);
    }

    /**
     * @param cluster  the cluster to connect to (all its masters are seeds)
     * @param settings changes to the builder (a 2 s command timeout is preset)
     * @return the client, closed after the test
     */
    public LockClient openCluster(RedisCluster cluster, Consumer<LockClient.Builder> settings) {
        return open(LockClient.builder()
                .clusterNodes(cluster.nodes().stream().map(node -> RedisURI.create(node.uri())).toList()), settings);
    }

    /**
     * @param sentinel the Sentinel set; the client finds the master through the Sentinels, as applications do
     * @param settings changes to the builder (a 2 s command timeout is preset)
     * @return the client, closed after the test
     */
    public LockClient openSentinel(RedisSentinel sentinel, Consumer<LockClient.Builder> settings) {
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

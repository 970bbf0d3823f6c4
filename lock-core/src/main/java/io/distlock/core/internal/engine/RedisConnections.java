package io.distlock.core.internal.engine;

import io.distlock.core.internal.scripts.ScriptTarget;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.event.ClusterTopologyChangedEvent;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The two connections a client uses, to a standalone (or Sentinel-managed) Redis or to a Redis
 * Cluster, and what the topology means for the engine: on a cluster, watchdog batches are cut per
 * hash slot (a script may only touch one), and on Redis 7+ clusters wake-ups use sharded pub/sub
 * ({@code SPUBLISH}/{@code SSUBSCRIBE}), which stays on the nodes serving the lock's slot instead
 * of being broadcast to every node.
 *
 * <p>It also counts how often a connection of the client dropped ({@link #drops()}): Lettuce
 * sends commands that were unanswered when a connection dropped again after reconnecting
 * (at-least-once), so an answer that arrives after a drop may come from a second run.
 */
public final class RedisConnections implements ScriptTarget, AutoCloseable {

    private static final System.Logger LOG = System.getLogger(RedisConnections.class.getName());
    /** How long the client's event loops get to finish their work when it shuts down. */
    private static final long SHUTDOWN_SECONDS = 2;
    /** How much longer closing waits for the shutdown to complete. */
    private static final long SHUTDOWN_MARGIN_SECONDS = 3;

    private static final Pattern VERSION = Pattern.compile("redis_version:(\\d+)");

    private final RedisClusterAsyncCommands<String, String> commands;
    private final StatefulConnection<String, String> connection;
    private final StatefulRedisPubSubConnection<String, String> pubSub;
    private final boolean cluster;
    private final boolean sharded;
    private final AbstractRedisClient client;
    private final boolean owned;
    private final ConnectionDrops drops;
    private final @Nullable CommandConnectionState commandState;
    private volatile @Nullable Disposable topologyChanges;

    private RedisConnections(RedisClusterAsyncCommands<String, String> commands,
                             StatefulConnection<String, String> connection,
                             StatefulRedisPubSubConnection<String, String> pubSub, boolean cluster, boolean sharded,
                             AbstractRedisClient client, boolean owned, ConnectionDrops drops,
                             @Nullable CommandConnectionState commandState) {
        this.commands = commands;
        this.connection = connection;
        this.pubSub = pubSub;
        this.cluster = cluster;
        this.sharded = sharded;
        this.client = client;
        this.owned = owned;
        this.drops = drops;
        this.commandState = commandState;
    }

    /**
     * Connects to a standalone or Sentinel-managed Redis.
     *
     * @param client         the Lettuce client, with a default URI
     * @param owned          whether {@link #close()} shuts the client down too
     * @param commandTimeout how long a refused reconnect makes commands fail at once
     *                       (see {@link CommandConnectionState})
     * @return the connections
     * @throws RuntimeException from Lettuce if Redis cannot be reached; nothing is left open then
     */
    public static RedisConnections standalone(RedisClient client, boolean owned, Duration commandTimeout) {
        StatefulRedisConnection<String, String> connection = null;
        ConnectionDrops drops = new ConnectionDrops();
        client.addListener(drops);
        CommandConnectionState commandState = new CommandConnectionState(client, commandTimeout);
        try {
            connection = client.connect(ExactUtf8Codec.INSTANCE);
            commandState.follow(connection);
            StatefulRedisPubSubConnection<String, String> pubSub = client.connectPubSub(ExactUtf8Codec.INSTANCE);
            return new RedisConnections(connection.async(), connection, pubSub, false, false, client, owned, drops,
                    commandState);
        } catch (RuntimeException e) {
            commandState.close();
            closeAfterFailure(connection, client, owned, drops);
            throw e;
        }
    }

    /**
     * Connects to a Redis Cluster and asks a node for its version (sharded pub/sub needs Redis 7).
     *
     * @param client         the Lettuce cluster client, with seed URIs
     * @param owned          whether {@link #close()} shuts the client down too
     * @param commandTimeout how long the version question may take
     * @return the connections
     * @throws RuntimeException from Lettuce if the cluster cannot be reached; nothing is left open then
     */
    public static RedisConnections cluster(RedisClusterClient client, boolean owned, Duration commandTimeout) {
        StatefulRedisClusterConnection<String, String> connection = null;
        ConnectionDrops drops = new ConnectionDrops();
        client.addListener(drops);
        try {
            connection = client.connect(ExactUtf8Codec.INSTANCE);
            boolean sharded = majorVersion(connection, commandTimeout) >= 7;
            StatefulRedisPubSubConnection<String, String> pubSub = client.connectPubSub(ExactUtf8Codec.INSTANCE);
            return new RedisConnections(connection.async(), connection, pubSub, true, sharded, client, owned, drops,
                    null);
        } catch (RuntimeException e) {
            closeAfterFailure(connection, client, owned, drops);
            throw e;
        }
    }

    private static int majorVersion(StatefulRedisClusterConnection<String, String> connection, Duration timeout) {
        String info;
        try {
            info = connection.async().info("server").get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while asking the cluster for its version", e);
        } catch (Exception e) {
            throw new IllegalStateException("Could not ask the cluster for its version: " + e, e);
        }
        Matcher matcher = VERSION.matcher(info);
        return matcher.find() ? Integer.parseInt(matcher.group(1)) : 0;
    }

    /** @return async commands of the shared command connection (routed by slot on a cluster) */
    @Override
    public RedisClusterAsyncCommands<String, String> commands() {
        return commands;
    }

    /**
     * @return why the command connection cannot take a command now (see {@link CommandConnectionState}):
     *         the failure of Lettuce's last attempt to reconnect it; {@code null} while it can, and
     *         always on a cluster, whose nodes' connections Lettuce routes and refreshes itself
     */
    public @Nullable Throwable unreachable() {
        return commandState == null ? null : commandState.unreachable();
    }

    /** @return the pub/sub connection for wake-ups */
    public StatefulRedisPubSubConnection<String, String> pubSub() {
        return pubSub;
    }

    /** @return whether wake-ups use sharded pub/sub ({@code SSUBSCRIBE}/{@code SPUBLISH}) */
    public boolean shardedPubSub() {
        return sharded;
    }

    /** @return the command scripts publish wake-ups with: {@code SPUBLISH} or {@code PUBLISH} */
    @Override
    public String publishCommand() {
        return sharded ? "spublish" : "publish";
    }

    /**
     * Sends {@code WAIT} on the connection that wrote {@code key}: the shared connection, or on a
     * cluster the connection to the master serving the key's slot (the one slot-routed writes use).
     *
     * @param key           a key written by this client
     * @param replicas      replicas to wait for
     * @param timeoutMillis longest wait
     * @return how many replicas acknowledged this connection's writes so far
     */
    public CompletableFuture<Long> waitForReplicas(String key, int replicas, long timeoutMillis) {
        try {
            if (!cluster) {
                return commands.waitForReplication(replicas, timeoutMillis).toCompletableFuture();
            }
            StatefulRedisClusterConnection<String, String> clusterConnection =
                    (StatefulRedisClusterConnection<String, String>) connection;
            int slot = SlotHash.getSlot(key);
            RedisClusterNode master = clusterConnection.getPartitions().getMasterBySlot(slot);
            if (master == null) {
                return CompletableFuture.failedFuture(new IllegalStateException("no master serves slot " + slot));
            }
            RedisURI uri = master.getUri();
            return clusterConnection.getConnectionAsync(uri.getHost(), uri.getPort())
                    .thenCompose(node -> node.async().waitForReplication(replicas, timeoutMillis));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);  // e.g. a closed connection: a failure, never a throw
        }
    }

    /**
     * @return how many times a connection of the client has dropped so far. A command whose answer
     *         comes after this number changed may have run twice, the second time on a new
     *         connection: Lettuce sends commands that were unanswered at the drop again after
     *         reconnecting. (With a Lettuce client given by the application, drops of its other
     *         connections count too.)
     */
    public long drops() {
        return drops.count();
    }

    /**
     * @return completes when a cluster client's slot map has been read again from the nodes (at
     *         once on a standalone Redis); never fails, a failed refresh completes it too
     */
    public CompletionStage<?> refreshTopology() {
        if (!cluster) {
            return CompletableFuture.completedFuture(null);
        }
        try {
            return ((RedisClusterClient) client).refreshPartitionsAsync().exceptionally(error -> null);
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(null);  // e.g. the client is shut down
        }
    }

    /**
     * Runs an action whenever the cluster's topology changes (slots moved, a master replaced), e.g.
     * to subscribe sharded channels again at their new nodes; nothing happens on a standalone Redis.
     *
     * @param action what to run, on a Lettuce thread; must not block
     */
    public void onTopologyChange(Runnable action) {
        if (cluster) {
            topologyChanges = client.getResources().eventBus().get()
                    .filter(ClusterTopologyChangedEvent.class::isInstance)
                    .subscribe(event -> action.run());
        }
    }

    /** Closes both connections, then the client if it was created for this engine. */
    @Override
    public void close() {
        Disposable subscription = topologyChanges;
        if (subscription != null) {
            subscription.dispose();
        }
        closeQuietly(pubSub);
        closeQuietly(connection);
        if (commandState != null) {
            commandState.close();
        }
        client.removeListener(drops);
        if (owned) {
            shutDown(client);
        }
    }

    private static void closeAfterFailure(@Nullable StatefulConnection<String, String> connection,
                                          AbstractRedisClient client, boolean owned, ConnectionDrops drops) {
        closeQuietly(connection);
        client.removeListener(drops);
        if (owned) {
            shutDown(client);
        }
    }

    /**
     * Shuts a client of the engine's own down, waiting a bounded time. Lettuce's own blocking
     * {@code shutdown} waits without limit for its shutdown to complete, and that completion can
     * fail to come (seen after the server was stopped while a connection was reconnecting to it):
     * closing a lock client must not hang, so the rest of the shutdown goes on by itself.
     */
    private static void shutDown(AbstractRedisClient client) {
        try {
            client.shutdownAsync(0, SHUTDOWN_SECONDS, TimeUnit.SECONDS)
                    .get(SHUTDOWN_SECONDS + SHUTDOWN_MARGIN_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            LOG.log(System.Logger.Level.WARNING, "The Redis client did not shut down within "
                    + (SHUTDOWN_SECONDS + SHUTDOWN_MARGIN_SECONDS) + " s; closing goes on without waiting for it");
        } catch (ExecutionException e) {
            LOG.log(System.Logger.Level.WARNING, "Shutting the Redis client down failed", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(@Nullable AutoCloseable closeable) {
        if (closeable != null) {
            try {
                closeable.close();
            } catch (Exception ignored) {
                // closing anyway
            }
        }
    }
}

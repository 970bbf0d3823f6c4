package io.distlock.core.internal.engine;

import io.distlock.core.LockException;
import io.distlock.core.RedisUris;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.SslOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.resource.ClientResources;

import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Where a lock client connects, as its builder was told, and the Lettuce client it connects with:
 * one standalone or Sentinel-managed Redis by URI, a Redis Cluster by its seed nodes, or a Lettuce
 * client the caller created and owns. The clients it creates reconnect on their own, give every
 * command the command timeout, and on a cluster refresh the slot map soon after a failover.
 */
public final class RedisTarget {

    private final @Nullable String uri;
    private final @Nullable RedisURI parsedUri;
    private final @Nullable RedisClient redisClient;
    private final @Nullable RedisClusterClient clusterClient;
    private final @Nullable List<RedisURI> clusterNodes;
    private final @Nullable SslOptions sslOptions;
    private final @Nullable ClientResources clientResources;

    /**
     * @param uri             a Redis URI as text, or {@code null}
     * @param parsedUri       the Lettuce URI {@code uri} came from, or {@code null} if it was given as text
     * @param redisClient     a client the caller owns, or {@code null}
     * @param clusterClient   a cluster client the caller owns, or {@code null}
     * @param clusterNodes    a cluster's seed nodes, or {@code null}
     * @param sslOptions      TLS options of a client created here, or {@code null} for the JVM's defaults
     * @param clientResources Lettuce resources of a client created here, or {@code null} for its own
     * @throws IllegalStateException unless exactly one of the four targets is given, or if TLS
     *                               options or resources are given with a client the caller created
     */
    public RedisTarget(@Nullable String uri, @Nullable RedisURI parsedUri, @Nullable RedisClient redisClient,
                       @Nullable RedisClusterClient clusterClient, @Nullable List<RedisURI> clusterNodes,
                       @Nullable SslOptions sslOptions, @Nullable ClientResources clientResources) {
        int targets = (uri != null ? 1 : 0) + (redisClient != null ? 1 : 0) + (clusterClient != null ? 1 : 0)
                + (clusterNodes != null ? 1 : 0);
        if (targets != 1) {
            throw new IllegalStateException("Set exactly one of redisUri(...), redisClient(...), clusterClient(...) "
                    + "and clusterNodes(...) on the LockClient builder");
        }
        if (redisClient != null || clusterClient != null) {
            if (sslOptions != null) {
                throw new IllegalStateException("sslOptions(...) applies only to the Redis client the LockClient "
                        + "builder creates (redisUri or clusterNodes); set SslOptions in the ClientOptions of the "
                        + "client you pass instead");
            }
            if (clientResources != null) {
                throw new IllegalStateException("clientResources(...) applies only to the Redis client the "
                        + "LockClient builder creates (redisUri or clusterNodes); the client you pass already has "
                        + "the resources it was created with");
            }
        }
        this.uri = uri;
        this.parsedUri = parsedUri;
        this.redisClient = redisClient;
        this.clusterClient = clusterClient;
        this.clusterNodes = clusterNodes;
        this.sslOptions = sslOptions;
        this.clientResources = clientResources;
    }

    /**
     * @param commandTimeout how long a command may wait for its answer; also the connect timeout
     * @return the command and pub/sub connections
     * @throws IllegalArgumentException if the URI is malformed
     * @throws LockException            if Redis cannot be reached or refuses the credentials
     */
    public RedisConnections connect(Duration commandTimeout) {
        RedisURI standaloneUri = uri != null ? parseUri(uri, commandTimeout) : null;  // a malformed URI is the caller's error
        try {
            return standaloneUri != null ? standalone(standaloneUri, commandTimeout) : open(commandTimeout);
        } catch (RuntimeException e) {
            throw RedisFailures.translate("connect to Redis at " + describe(), e);
        }
    }

    /** Connects with the client the caller gave, or creates a cluster client for the seed nodes. */
    // enableAllAdaptiveRefreshTriggers(): Lettuce 7 deprecates it, since it enables every adaptive
    // trigger by default; Lettuce 6.6, which this library supports too, enables none without it.
    @SuppressWarnings("deprecation")
    private RedisConnections open(Duration commandTimeout) {
        if (redisClient != null) {
            return RedisConnections.standalone(redisClient, false, commandTimeout);
        }
        if (clusterClient != null) {
            return RedisConnections.cluster(clusterClient, false, commandTimeout);
        }
        List<RedisURI> nodes = Objects.requireNonNull(clusterNodes, "the constructor checked that one target is set");
        nodes.forEach(node -> node.setTimeout(commandTimeout));
        RedisClusterClient created = clientResources == null ? RedisClusterClient.create(nodes)
                : RedisClusterClient.create(clientResources, nodes);
        ClusterClientOptions.Builder options = withCommonOptions(ClusterClientOptions.builder(), commandTimeout);
        options.topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
                // Redirects and failing reconnects refresh the slot map, at most once a
                // second: after a master dies, the first refresh usually comes before the
                // election, so the next ones must not be 30 s (Lettuce's default) away.
                .enableAllAdaptiveRefreshTriggers()
                .adaptiveRefreshTriggersTimeout(Duration.ofSeconds(1))
                .enablePeriodicRefresh(Duration.ofSeconds(30))
                .build());
        created.setOptions(options.build());
        return RedisConnections.cluster(created, true, commandTimeout);
    }

    /** Creates a client for one standalone or Sentinel-managed Redis. */
    private RedisConnections standalone(RedisURI standaloneUri, Duration commandTimeout) {
        RedisClient created = clientResources == null ? RedisClient.create(standaloneUri)
                : RedisClient.create(clientResources, standaloneUri);
        created.setOptions(withCommonOptions(ClientOptions.builder(), commandTimeout).build());
        return RedisConnections.standalone(created, true, commandTimeout);
    }

    /**
     * What every client created here has, standalone or cluster: it reconnects by itself, every
     * command and every connect gets the command timeout, and TLS uses the options given.
     */
    private <B extends ClientOptions.Builder> B withCommonOptions(B options, Duration commandTimeout) {
        options.autoReconnect(true)
                .timeoutOptions(TimeoutOptions.enabled(commandTimeout))
                .socketOptions(SocketOptions.builder().connectTimeout(commandTimeout).build())
                .sslOptions(sslOptions != null ? sslOptions : SslOptions.create());
        return options;
    }

    private RedisURI parseUri(String text, Duration commandTimeout) {
        if (parsedUri != null) {
            parsedUri.setTimeout(commandTimeout);
            return parsedUri;
        }
        RedisURI parsed;
        try {
            parsed = RedisURI.create(text);
        } catch (RuntimeException e) {
            // No cause: the parser's message quotes the URI, password included.
            throw new IllegalArgumentException("redisUri '" + RedisUris.mask(text) + "' is not a valid Redis URI: "
                    + RedisUris.parseFailure(text, e)
                    + ". Expected redis://[[user]:password@]host[:port][/database] or rediss://...");
        }
        parsed.setTimeout(commandTimeout);
        return parsed;
    }

    /** @return whether it is a Redis Cluster */
    public boolean isCluster() {
        return clusterClient != null || clusterNodes != null;
    }

    /** @return where it connects, for messages, with no password */
    public String describe() {
        if (uri != null) {
            return RedisUris.mask(uri);
        }
        if (clusterNodes != null) {
            return "cluster " + clusterNodes.stream().map(node -> node.getHost() + ":" + node.getPort()).toList();
        }
        return redisClient != null ? "the given RedisClient's URI" : "the given RedisClusterClient's seeds";
    }
}

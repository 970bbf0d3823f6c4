package io.distlock.test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Starts real Redis servers for tests: containers when the effective mode is {@link RedisMode#DOCKER},
 * else guarded local {@code redis-server} processes (see {@link RedisMode} and {@link RedisBinary}).
 *
 * <pre>{@code
 * try (RedisServer redis = RedisServers.start()) {
 *     redis.command("SET", "k", "v");
 * }
 * }</pre>
 */
public final class RedisServers {

    private RedisServers() {
    }

    /**
     * Starts one server with default options.
     *
     * @return the running server; the caller closes it
     */
    public static RedisServer start() {
        return start(RedisServerOptions.defaults());
    }

    /**
     * Starts one server.
     *
     * @param options extra arguments, mode override and timeouts
     * @return the running server; the caller closes it
     */
    public static RedisServer start(RedisServerOptions options) {
        RedisMode mode = options.mode().resolve();
        if (mode == RedisMode.DOCKER && options.tls().isPresent() && options.mode() != RedisMode.DOCKER) {
            mode = RedisMode.PROCESS;  // TLS servers need the test's certificate files: local processes
        }
        if (mode == RedisMode.DOCKER) {
            return ContainerRedisServer.start(options);
        }
        return ProcessRedisServer.start(RedisBinary.forMode(mode), options);
    }

    /**
     * Starts {@code count} independent servers with default options.
     *
     * @param count number of servers, at least 1
     * @return the running servers, each on its own port; the caller closes them
     */
    public static List<RedisServer> start(int count) {
        return start(count, RedisServerOptions.defaults());
    }

    /**
     * Starts {@code count} independent servers; if one fails, those already started are closed.
     *
     * @param count   number of servers, at least 1
     * @param options options applied to every server
     * @return the running servers, each on its own port; the caller closes them
     */
    public static List<RedisServer> start(int count, RedisServerOptions options) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be at least 1: " + count);
        }
        List<RedisServer> servers = new ArrayList<>(count);
        try {
            for (int i = 0; i < count; i++) {
                servers.add(start(options));
            }
        } catch (RuntimeException e) {
            closeAll(servers);
            throw e;
        }
        return Collections.unmodifiableList(servers);
    }

    /**
     * Describes where servers started with the given options come from, e.g.
     * {@code "redis-server 7.0.15 at /usr/bin/redis-server (PATH)"}.
     *
     * @param options the options whose mode is resolved
     * @return a one-line description
     */
    public static String describe(RedisServerOptions options) {
        RedisMode mode = options.mode().resolve();
        if (mode == RedisMode.DOCKER) {
            return "Docker image " + ContainerRedisServer.IMAGE + " (Testcontainers)";
        }
        return RedisBinary.forMode(mode).toString();
    }

    /**
     * Closes every server, continuing past failures; the first failure is rethrown at the end.
     *
     * @param servers the servers to close
     */
    public static void closeAll(List<? extends RedisServer> servers) {
        RuntimeException failure = null;
        for (RedisServer server : servers) {
            try {
                server.close();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}

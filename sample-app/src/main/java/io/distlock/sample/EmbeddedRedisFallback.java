package io.distlock.sample;

import org.apache.commons.logging.Log;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import redis.embedded.RedisServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * Lets a newcomer run the sample with no Redis at all: when neither {@code distlock.redis.url}
 * nor {@code spring.data.redis.host}/{@code url} is configured and nothing listens on
 * localhost:6379, starts the Redis binary shipped in the embedded-redis jar on a free port and
 * points {@code distlock.redis.url} at it, saying so in the log. {@code sample.embedded-redis.port}
 * asks for it outright, on that port, whatever else is configured (the two-instance race uses it
 * to know where the Redis both instances share will be). Stopped when the JVM exits.
 */
public final class EmbeddedRedisFallback implements EnvironmentPostProcessor {

    /** Start the embedded Redis on this port and use it, whatever else is configured. */
    public static final String PORT_PROPERTY = "sample.embedded-redis.port";

    /** The port of the Redis the sample uses when none is configured. */
    public static final int DEFAULT_REDIS_PORT = 6379;

    private static final String[] REDIS_SETTINGS = {"distlock.redis.url", "distlock.redis.sentinel.master",
            "spring.data.redis.url", "spring.data.redis.host"};

    private final Log log;

    EmbeddedRedisFallback(DeferredLogFactory logs) {
        this.log = logs.getLog(EmbeddedRedisFallback.class);
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        Integer requestedPort = environment.getProperty(PORT_PROPERTY, Integer.class);
        if (requestedPort == null && redisConfigured(environment)) {
            return;
        }
        if (requestedPort == null && LocalPorts.listening(DEFAULT_REDIS_PORT)) {
            log.info("No Redis configured: using the one listening on localhost:" + DEFAULT_REDIS_PORT);
            return;
        }
        int port = requestedPort == null ? LocalPorts.free() : requestedPort;
        RedisServer server;
        try {
            // No snapshot: nothing of it is left on disk when it stops.
            server = RedisServer.newRedisServer().port(port).bind("127.0.0.1").setting("save \"\"")
                    .setting("appendonly no").build();
            server.start();
        } catch (IOException e) {
            throw new UncheckedIOException("The embedded Redis did not start on port " + port
                    + "; set REDIS_URL to a running Redis", e);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> stopQuietly(server), "embedded-redis-stop"));
        environment.getPropertySources().addFirst(new MapPropertySource("embeddedRedis",
                Map.of("distlock.redis.url", "redis://localhost:" + port)));
        log.warn("Started an EMBEDDED Redis on port " + port + " for this run"
                + (requestedPort == null ? ": no Redis configured and none on localhost:" + DEFAULT_REDIS_PORT
                + " (set REDIS_URL to use your own)" : ", as " + PORT_PROPERTY + " asks"));
    }

    private boolean redisConfigured(ConfigurableEnvironment environment) {
        for (String setting : REDIS_SETTINGS) {
            String value = environment.getProperty(setting);
            if (value != null && !value.isBlank()) {
                log.info("Using the Redis configured by " + setting);
                return true;
            }
        }
        return false;
    }

    private static void stopQuietly(RedisServer server) {
        try {
            server.stop();
        } catch (IOException ignored) {
            // the JVM is exiting anyway
        }
    }
}

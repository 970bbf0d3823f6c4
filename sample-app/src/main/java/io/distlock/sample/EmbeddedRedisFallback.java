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
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Map;

/**
 * Lets a newcomer run the sample with no Redis at all: when neither {@code distlock.redis.url}
 * nor {@code spring.data.redis.host}/{@code url} is configured and nothing listens on
 * localhost:6379, starts the Redis binary shipped in the embedded-redis jar on a free port (or on
 * {@code sample.embedded-redis.port}) and points {@code distlock.redis.url} at it, saying so in
 * the log. Stopped when the JVM exits.
 */
public final class EmbeddedRedisFallback implements EnvironmentPostProcessor {

    /** The port to start the embedded Redis on; a free one when not set. */
    public static final String PORT_PROPERTY = "sample.embedded-redis.port";

    private static final String[] REDIS_SETTINGS = {"distlock.redis.url", "distlock.redis.sentinel.master",
            "spring.data.redis.url", "spring.data.redis.host"};

    private final Log log;

    EmbeddedRedisFallback(DeferredLogFactory logs) {
        this.log = logs.getLog(EmbeddedRedisFallback.class);
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        for (String setting : REDIS_SETTINGS) {
            String value = environment.getProperty(setting);
            if (value != null && !value.isBlank()) {
                log.info("Using the Redis configured by " + setting);
                return;
            }
        }
        if (defaultRedisListening()) {
            log.info("No Redis configured: using the one listening on localhost:6379");
            return;
        }
        int port = environment.getProperty(PORT_PROPERTY, Integer.class, 0);
        port = port > 0 ? port : freePort();
        RedisServer server;
        try {
            server = new RedisServer(port);
            server.start();
        } catch (IOException e) {
            throw new UncheckedIOException("No Redis configured, none on localhost:6379, and the embedded Redis "
                    + "did not start; set REDIS_URL to a running Redis", e);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> stopQuietly(server), "embedded-redis-stop"));
        environment.getPropertySources().addFirst(new MapPropertySource("embeddedRedis",
                Map.of("distlock.redis.url", "redis://localhost:" + port)));
        log.warn("No Redis configured and none on localhost:6379: started an EMBEDDED Redis on port " + port
                + " for this run (set REDIS_URL to use your own)");
    }

    private static void stopQuietly(RedisServer server) {
        try {
            server.stop();
        } catch (IOException ignored) {
            // the JVM is exiting anyway
        }
    }

    /** @return whether something listens on localhost:6379, the Redis the sample uses when none is configured */
    public static boolean defaultRedisListening() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("localhost", 6379), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("No free port for the embedded Redis", e);
        }
    }
}

package io.distlock.sample;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.embedded.RedisServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * Finds the Redis the sample uses: the configured URL, else localhost:6379 when something listens
 * there, else an embedded Redis started on a free port (so a newcomer needs no Redis at all).
 */
public final class LocalRedis implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LocalRedis.class);

    private final String uri;
    private final RedisServer embedded;

    private LocalRedis(String uri, RedisServer embedded) {
        this.uri = uri;
        this.embedded = embedded;
    }

    /**
     * @param configuredUrl the configured Redis URL, or blank
     * @return where Redis is, starting an embedded one if needed
     */
    public static LocalRedis resolve(String configuredUrl) {
        if (configuredUrl != null && !configuredUrl.isBlank()) {
            return new LocalRedis(configuredUrl, null);
        }
        if (listening(6379)) {
            LOG.info("Using the Redis listening on localhost:6379");
            return new LocalRedis("redis://localhost:6379", null);
        }
        int port = freePort();
        try {
            RedisServer server = new RedisServer(port);
            server.start();
            LOG.info("No Redis configured and none on localhost:6379: started an embedded Redis on port {}", port);
            return new LocalRedis("redis://localhost:" + port, server);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start the embedded Redis; set REDIS_URL to a running Redis", e);
        }
    }

    /** @return the Redis URI to connect to */
    public String uri() {
        return uri;
    }

    @Override
    public void close() throws IOException {
        if (embedded != null) {
            embedded.stop();
        }
    }

    private static boolean listening(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("localhost", port), 200);
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

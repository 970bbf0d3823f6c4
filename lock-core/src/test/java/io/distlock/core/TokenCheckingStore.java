package io.distlock.core;

import io.distlock.test.RespConnection;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;

/**
 * The storage a fenced lock protects, as fencing is meant to be used: it keeps the highest token
 * it has seen (in a Redis hash) and refuses writes that carry an older one, so a holder that
 * stalled past its lease is stopped here. One record per instance; each call opens a short raw
 * connection, so it works from any JVM that knows the server's URI (no password support).
 * Shared with other modules' tests through lock-core's test jar.
 */
public final class TokenCheckingStore {

    private static final String WRITE = loadScript("token-checking-write.lua");
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    private final String host;
    private final int port;
    private final String key;

    /**
     * @param redisUri the server, {@code redis://host:port}
     * @param key      the Redis key of the record
     */
    public TokenCheckingStore(String redisUri, String key) {
        URI uri = URI.create(Objects.requireNonNull(redisUri, "redisUri must not be null"));
        if (uri.getHost() == null || uri.getPort() < 0) {
            throw new IllegalArgumentException("redisUri must look like redis://host:port, got " + redisUri);
        }
        this.host = uri.getHost();
        this.port = uri.getPort();
        this.key = Objects.requireNonNull(key, "key must not be null");
    }

    /**
     * @param value what to store
     * @param token the writer's fencing token
     * @return {@code true} if written, {@code false} if refused because a newer token was seen
     */
    public boolean write(String value, long token) {
        return Long.valueOf(1).equals(call("EVAL", WRITE, "1", key, value, Long.toString(token)));
    }

    /** @return the value last written, or {@code null} if none */
    public String value() {
        Object value = call("HGET", key, "value");
        return value == null ? null : value.toString();
    }

    private Object call(String... args) {
        try (RespConnection connection = RespConnection.open(host, port, TIMEOUT)) {
            return connection.call(args);
        }
    }

    private static String loadScript(String name) {
        try (InputStream in = TokenCheckingStore.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("Script " + name + " is missing next to " + TokenCheckingStore.class);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read script " + name, e);
        }
    }
}

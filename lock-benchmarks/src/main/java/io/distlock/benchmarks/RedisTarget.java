package io.distlock.benchmarks;

import io.distlock.test.RedisServer;
import io.distlock.test.RedisServerOptions;
import io.distlock.test.RedisServers;
import io.lettuce.core.RedisURI;

import java.util.Optional;

/**
 * The one Redis a benchmark run uses: the server given by {@code --redis-uri}, or a local server
 * started by the test fixture and ended with the run.
 */
final class RedisTarget implements AutoCloseable {

    private final String uri;
    private final String description;
    private final RedisServer startedServer;

    private RedisTarget(String uri, String description, RedisServer startedServer) {
        this.uri = uri;
        this.description = description;
        this.startedServer = startedServer;
    }

    /**
     * @param givenUri the {@code --redis-uri} option; empty starts a local server
     * @return the target, running
     */
    static RedisTarget open(Optional<String> givenUri) {
        if (givenUri.isPresent()) {
            RedisURI parsed = RedisURI.create(givenUri.get());
            return new RedisTarget(givenUri.get(), "--redis-uri " + parsed.getHost() + ":" + parsed.getPort(), null);
        }
        String origin = RedisServers.describe(RedisServerOptions.defaults());
        RedisServer server = RedisServers.start();
        return new RedisTarget(server.uri(), "started for this run: " + origin + ", " + server.uri(), server);
    }

    /** @return the URI clients connect to */
    String uri() {
        return uri;
    }

    /** @return where the server is, without credentials */
    String description() {
        return description;
    }

    /** @return whether this run started the server (so it may delete every key of it) */
    boolean startedForRun() {
        return startedServer != null;
    }

    /** Ends the server if this run started it. */
    @Override
    public void close() {
        if (startedServer != null) {
            startedServer.close();
        }
    }
}

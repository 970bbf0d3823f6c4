package io.distlock.test;

import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * JUnit 5 extension that provides real Redis servers to a test class.
 *
 * <pre>{@code
 * @RegisterExtension
 * static RedisExtension redis = RedisExtension.single();   // or RedisExtension.nodes(3)
 *
 * @Test
 * void works() {
 *     redis.server().command("SET", "k", "v");
 * }
 * }</pre>
 *
 * <p>Registered on a {@code static} field, the servers live for the whole class (also across
 * {@code @Nested} classes) and are closed in {@code afterAll}, even when tests fail. Registered on an
 * instance field, they live for one test. Before each test, any server a previous test left stopped,
 * killed or paused is brought back, so one failing fault-injection test does not break the next.
 */
public final class RedisExtension implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback,
        AfterEachCallback {

    private final int count;
    private final RedisServerOptions options;
    private List<RedisServer> servers;
    private String ownerId;

    private RedisExtension(int count, RedisServerOptions options) {
        if (count < 1) {
            throw new IllegalArgumentException("count must be at least 1: " + count);
        }
        this.count = count;
        this.options = options;
    }

    /**
     * One server with default options.
     *
     * @return the extension
     */
    public static RedisExtension single() {
        return new RedisExtension(1, RedisServerOptions.defaults());
    }

    /**
     * One server with the given options (extra arguments such as {@code --requirepass}).
     *
     * @param options the server options
     * @return the extension
     */
    public static RedisExtension single(RedisServerOptions options) {
        return new RedisExtension(1, options);
    }

    /**
     * {@code count} independent servers with default options.
     *
     * @param count number of servers
     * @return the extension
     */
    public static RedisExtension nodes(int count) {
        return new RedisExtension(count, RedisServerOptions.defaults());
    }

    /**
     * {@code count} independent servers with the given options.
     *
     * @param count   number of servers
     * @param options options applied to every server
     * @return the extension
     */
    public static RedisExtension nodes(int count, RedisServerOptions options) {
        return new RedisExtension(count, options);
    }

    /**
     * Returns the first (for {@link #single()} the only) server.
     *
     * @return the server
     * @throws IllegalStateException outside the extension's lifecycle
     */
    public RedisServer server() {
        return servers().get(0);
    }

    /**
     * Returns the server at {@code index}.
     *
     * @param index zero-based index
     * @return the server
     */
    public RedisServer server(int index) {
        return servers().get(index);
    }

    /**
     * Returns all servers, in a stable order.
     *
     * @return unmodifiable list of servers
     * @throws IllegalStateException outside the extension's lifecycle
     */
    public synchronized List<RedisServer> servers() {
        if (servers == null) {
            throw new IllegalStateException("Redis servers are not started: register RedisExtension with "
                    + "@RegisterExtension and use it inside the test lifecycle");
        }
        return servers;
    }

    /** Runs {@code FLUSHALL} on every server that is running and not paused. */
    public void flushAll() {
        for (RedisServer server : servers()) {
            if (server.isRunning() && !server.isPaused()) {
                server.flushAll();
            }
        }
    }

    /** Resumes paused servers and restarts stopped or killed ones (on their original ports). */
    public void restoreAll() {
        for (RedisServer server : servers()) {
            if (server.isPaused()) {
                server.resume();
            }
            if (!server.isRunning()) {
                server.start();
            }
        }
    }

    @Override
    public synchronized void beforeAll(ExtensionContext context) {
        if (servers == null) {
            servers = RedisServers.start(count, options);
            ownerId = context.getUniqueId();
        }
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        synchronized (this) {
            if (servers == null) {
                servers = RedisServers.start(count, options);
                ownerId = context.getUniqueId();
                return;
            }
        }
        restoreAll();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        closeIfOwner(context);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        closeIfOwner(context);
    }

    private void closeIfOwner(ExtensionContext context) {
        List<RedisServer> toClose;
        synchronized (this) {
            if (servers == null || !context.getUniqueId().equals(ownerId)) {
                return;
            }
            toClose = servers;
            servers = null;
            ownerId = null;
        }
        RedisServers.closeAll(toClose);
    }
}

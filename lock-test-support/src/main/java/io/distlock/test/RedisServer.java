package io.distlock.test;

import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One real Redis server for tests, with lifecycle controls for fault injection.
 *
 * <p>Obtain instances from {@link RedisServers} or {@link RedisExtension}. A server keeps its port for
 * its whole life: after {@link #stop()} or {@link #kill()}, {@link #start()} brings it back on the same
 * port with the same arguments and data directory. {@link #close()} ends it for good.
 */
public interface RedisServer extends AutoCloseable {

    /**
     * Returns the host to connect to ({@code "127.0.0.1"} for local processes).
     *
     * @return the host
     */
    String host();

    /**
     * Returns the TCP port; it never changes, also not across restarts.
     *
     * @return the port
     */
    int port();

    /**
     * Returns the connection URI without credentials, e.g. {@code "redis://127.0.0.1:6379"}, or
     * {@code "rediss://..."} for a TLS-only server ({@link RedisServerOptions#withTls(TestCertificates)}).
     *
     * @return the URI
     */
    default String uri() {
        return (options().tls().isPresent() ? "rediss://" : "redis://") + host() + ":" + port();
    }

    /**
     * Returns the Redis version, e.g. {@code "7.0.15"}.
     *
     * @return the server version
     */
    String version();

    /**
     * Returns the OS process id of the current {@code redis-server} process; empty for containers or
     * while the server is not running.
     *
     * @return the pid, if known
     */
    OptionalLong pid();

    /**
     * Returns the options this server was started with.
     *
     * @return the options
     */
    RedisServerOptions options();

    /**
     * Returns the password configured with {@code --requirepass}, if any.
     *
     * @return the password
     */
    default Optional<String> password() {
        return options().password();
    }

    /**
     * Starts the server again on the same port after {@link #stop()} or {@link #kill()} and waits until it
     * answers PING; does nothing if it is already running.
     *
     * @throws IllegalStateException if the server was closed or does not become ready in time
     */
    void start();

    /**
     * Stops the server gracefully (SIGTERM, or {@code docker stop}) and waits, bounded, until it exited;
     * falls back to {@link #kill()} if it does not exit in time. Does nothing if it is not running.
     */
    void stop();

    /**
     * Kills the server abruptly (SIGKILL, or {@code docker kill}) and waits, bounded, until it is gone.
     * Does nothing if it is not running.
     */
    void kill();

    /**
     * Returns whether the server process (or container) is alive; a paused server counts as running.
     *
     * @return {@code true} if running
     */
    boolean isRunning();

    /**
     * Returns whether the server is currently paused by {@link #pause()}.
     *
     * @return {@code true} if paused
     */
    boolean isPaused();

    /**
     * Freezes the server (SIGSTOP, or {@code docker pause}): connections still open but nothing is answered.
     *
     * @throws IllegalStateException if the server is not running
     */
    void pause();

    /** Unfreezes a paused server (SIGCONT, or {@code docker unpause}); does nothing if not paused. */
    void resume();

    /** Ends the server for good and frees its resources; idempotent. */
    @Override
    void close();

    /**
     * Opens a raw connection (TLS for a TLS-only server), authenticated if a password or ACL user is
     * configured.
     *
     * @param timeout connect and read timeout
     * @return the open connection; the caller closes it
     * @throws UncheckedIOException if the server cannot be reached
     */
    default RespConnection connect(Duration timeout) {
        Optional<TestCertificates> tls = options().tls();
        RespConnection connection = tls.isPresent()
                ? RespConnection.openTls(host(), port(), timeout, tls.get().clientContext())
                : RespConnection.open(host(), port(), timeout);
        try {
            Optional<String> username = options().username();
            if (username.isPresent()) {
                connection.auth(username.get(), password().orElseThrow());
            } else {
                password().ifPresent(connection::auth);
            }
            return connection;
        } catch (RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    /**
     * Sends one raw command on a fresh connection (AUTH first if needed) with the default command timeout.
     *
     * @param args command name and arguments, e.g. {@code "INFO", "commandstats"}
     * @return the reply: {@link String}, {@link Long}, {@link List} or {@code null}
     * @throws RedisReplyException   on an error reply
     * @throws UncheckedIOException on connection failure or timeout
     */
    default Object command(String... args) {
        return command(options().commandTimeout(), args);
    }

    /**
     * Sends one raw command on a fresh connection with the given connect/read timeout.
     *
     * @param timeout connect and read timeout
     * @param args    command name and arguments
     * @return the reply: {@link String}, {@link Long}, {@link List} or {@code null}
     * @throws RedisReplyException   on an error reply
     * @throws UncheckedIOException on connection failure or timeout
     */
    default Object command(Duration timeout, String... args) {
        try (RespConnection connection = connect(timeout)) {
            return connection.call(args);
        }
    }

    /**
     * Sends one raw command and returns the reply as text ({@link String#valueOf(Object)} for non-strings).
     *
     * @param args command name and arguments
     * @return the reply text, or {@code null} for a null reply
     */
    default String commandString(String... args) {
        Object reply = command(args);
        return reply == null ? null : String.valueOf(reply);
    }

    /** Removes all keys with {@code FLUSHALL}. */
    default void flushAll() {
        command("FLUSHALL");
    }
}

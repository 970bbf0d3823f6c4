package io.distlock.core.internal.engine;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.event.connection.ReconnectFailedEvent;
import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.Objects;

/**
 * Whether the command connection to a standalone or Sentinel-managed Redis is down and a recent
 * attempt of Lettuce to reconnect it was refused: nothing listened at its address (Redis is
 * stopped or restarting). A command sent then would only wait in Lettuce's queue until the command
 * timeout, so the engine fails it at once instead, saying why. A connection that has just dropped,
 * and may come back at the first reconnect (a blip, a failover in progress), or whose reconnect
 * failed otherwise (it timed out: the host may only be slow), is not down in this sense: commands
 * wait for it as before.
 *
 * <p>A refusal counts for one command timeout after it came. Lettuce tries again after a pause
 * that grows to 30 s (the client resources' {@code reconnectDelay}): between a late attempt's
 * refusal and the next one, commands wait again, and may find Redis back.
 *
 * <p>Reconnect failures are read from the client's event bus, which {@code ClientResources} shared
 * with other clients share too: only failures to reach the address this connection last had count.
 */
final class CommandConnectionState implements RedisConnectionStateListener, AutoCloseable {

    /** A reconnect refused, and when (by {@link System#nanoTime()}). */
    private record Refusal(Throwable failure, long atNanos) {
    }

    private final AbstractRedisClient client;
    private final long refusalCountsNanos;
    private final Disposable reconnectFailures;
    private volatile @Nullable StatefulConnection<?, ?> connection;
    /** The address the command connection last connected to (before {@link #follow}: the client's last). */
    private volatile @Nullable SocketAddress address;
    private volatile boolean down;
    private volatile @Nullable Refusal refusal;

    /**
     * @param client         the client whose command connection it follows, once {@link #follow} names it
     * @param commandTimeout how long a refusal counts
     */
    CommandConnectionState(AbstractRedisClient client, Duration commandTimeout) {
        this.client = client;
        this.refusalCountsNanos = commandTimeout.toNanos();
        client.addListener(this);
        this.reconnectFailures = client.getResources().eventBus().get()
                .filter(ReconnectFailedEvent.class::isInstance)
                .subscribe(event -> onReconnectFailed((ReconnectFailedEvent) event));
    }

    /** @param command the command connection, just made (the client's first connection) */
    void follow(StatefulConnection<?, ?> command) {
        connection = command;
    }

    /**
     * @return why the command connection cannot take a command now: the refusal of a reconnect
     *         attempt within the last command timeout, since it dropped; {@code null} while it is
     *         up, or was not refused lately
     */
    @Nullable Throwable unreachable() {
        StatefulConnection<?, ?> command = connection;
        Refusal last = refusal;
        if (!down || command == null || command.isOpen() || last == null) {
            return null;
        }
        return System.nanoTime() - last.atNanos() < refusalCountsNanos ? last.failure() : null;
    }

    private void onReconnectFailed(ReconnectFailedEvent event) {
        if (down && sameAddress(event.remoteAddress(), address) && RedisFailures.connectionRefused(event.getCause())) {
            refusal = new Refusal(event.getCause(), System.nanoTime());
        }
    }

    /**
     * @return whether both name the same host and port: a reconnect's address is the URI's,
     *         unresolved; a connection's is resolved
     */
    private static boolean sameAddress(@Nullable SocketAddress reconnect, @Nullable SocketAddress connected) {
        if (reconnect instanceof InetSocketAddress a && connected instanceof InetSocketAddress b) {
            return a.getPort() == b.getPort() && (a.getHostString().equals(b.getHostString())
                    || (!a.isUnresolved() && !b.isUnresolved() && a.getAddress().equals(b.getAddress())));
        }
        return Objects.equals(reconnect, connected);
    }

    @Override
    public void onRedisConnected(RedisChannelHandler<?, ?> handler, SocketAddress remote) {
        StatefulConnection<?, ?> command = connection;
        if (command == null || handler == command) {
            address = remote;
            refusal = null;
            down = false;
        }
    }

    @Override
    public void onRedisDisconnected(RedisChannelHandler<?, ?> handler) {
        if (handler == connection && !handler.isClosed()) {
            refusal = null;
            down = true;
        }
    }

    @Override
    public void close() {
        reconnectFailures.dispose();
        client.removeListener(this);
    }
}

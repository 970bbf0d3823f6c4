package io.distlock.core.internal.engine;

import io.distlock.core.LockException;
import io.distlock.core.internal.scripts.ScriptTarget;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.jspecify.annotations.Nullable;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.ToIntFunction;

/**
 * A client's way to Redis: its {@link RedisConnections} once they are made. A client that must not
 * wait for Redis ({@link #connectInBackground}) starts without them when Redis is unreachable, and
 * connects in the background, trying again after a pause that grows to
 * {@value #MAX_PAUSE_MILLIS} ms (each pause cut by up to half, at random); until then every Redis call fails at once with a
 * {@link LockException} that says where it tried and why it could not connect. Once connected,
 * Lettuce keeps the connections and reconnects them by itself; while the command connection is
 * down and reconnecting it has failed ({@link RedisConnections#unreachable()}), calls fail at once
 * too, rather than wait in Lettuce's queue for the command timeout.
 *
 * <p>A Redis that answers but refuses the client (credentials, TLS trust) is a configuration error,
 * not an outage: the first attempt throws it, whatever the mode.
 */
public final class RedisConnector implements ScriptTarget, AutoCloseable {

    private static final System.Logger LOG = System.getLogger(RedisConnector.class.getName());
    private static final long FIRST_PAUSE_MILLIS = 500;
    private static final long MAX_PAUSE_MILLIS = 10_000;

    private final RedisTarget target;
    private final Duration commandTimeout;
    private volatile @Nullable RedisConnections connections;
    /** Why the last attempt failed, while not connected. */
    private volatile @Nullable RuntimeException failure;
    private volatile boolean closed;

    private RedisConnector(RedisTarget target, Duration commandTimeout) {
        this.target = target;
        this.commandTimeout = commandTimeout;
    }

    /**
     * Connects now.
     *
     * @param target         where to connect
     * @param commandTimeout how long a command may wait for its answer; also the connect timeout
     * @return the connector, connected
     * @throws LockException if Redis cannot be reached or refuses the client
     */
    public static RedisConnector connect(RedisTarget target, Duration commandTimeout) {
        RedisConnector connector = new RedisConnector(target, commandTimeout);
        connector.connections = target.connect(commandTimeout);
        return connector;
    }

    /**
     * Connects now if Redis can be reached, else starts without a connection and keeps trying on
     * the scheduler.
     *
     * @param target         where to connect
     * @param commandTimeout how long a command may wait for its answer; also the connect timeout
     * @param scheduler      runs the later attempts
     * @return the connector, connected or connecting
     * @throws LockException if Redis answers but refuses the client (credentials, TLS)
     */
    public static RedisConnector connectInBackground(RedisTarget target, Duration commandTimeout,
                                                     ScheduledExecutorService scheduler) {
        RedisConnector connector = new RedisConnector(target, commandTimeout);
        try {
            connector.connections = target.connect(commandTimeout);
        } catch (LockException e) {
            if (RedisFailures.refused(e)) {
                throw e;
            }
            connector.failure = e;
            LOG.log(Level.WARNING, () -> e.getMessage() + " Starting without Redis: lock calls fail until it "
                    + "answers; distlock keeps trying to connect in the background.");
            connector.tryAgain(scheduler, FIRST_PAUSE_MILLIS);
        }
        return connector;
    }

    private void tryAgain(ScheduledExecutorService scheduler, long pauseMillis) {
        try {
            // Jitter, so that a fleet started together does not knock on Redis together.
            long jittered = pauseMillis / 2 + ThreadLocalRandom.current().nextLong(pauseMillis / 2 + 1);
            scheduler.schedule(() -> attempt(scheduler, pauseMillis), jittered, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closing) {
            // the client is closing: no more attempts
        }
    }

    private void attempt(ScheduledExecutorService scheduler, long pauseMillis) {
        if (closed) {
            return;
        }
        RedisConnections made;
        try {
            made = target.connect(commandTimeout);
        } catch (RuntimeException e) {
            if (closed) {
                return;  // closing interrupted the attempt
            }
            RuntimeException before = failure;
            failure = e;
            if (before == null || !String.valueOf(before.getMessage()).equals(e.getMessage())) {
                // A new reason (Redis is up now, but refuses the password): say so, once.
                LOG.log(RedisFailures.refused(e) ? Level.ERROR : Level.WARNING, () -> e.getMessage()
                        + "; distlock keeps trying to connect");
            }
            tryAgain(scheduler, Math.min(2 * pauseMillis, MAX_PAUSE_MILLIS));
            return;
        }
        synchronized (this) {
            if (closed) {
                made.close();
                return;
            }
            connections = made;
        }
        failure = null;
        LOG.log(Level.INFO, () -> "Connected to Redis at " + target.describe() + ": locks work from now on");
    }

    /** @return the connections, or {@code null} while they are not made */
    @Nullable RedisConnections current() {
        return connections;
    }

    /** @return whether the connections are made */
    public boolean isConnected() {
        return connections != null;
    }

    /**
     * @return the connections
     * @throws LockException at once if they are not made yet, or the command connection dropped and
     *         reconnecting it failed since, saying why
     */
    private RedisConnections connected() {
        RedisConnections made = connections;
        if (made != null) {
            Throwable down = made.unreachable();
            if (down == null) {
                return made;
            }
            throw new NotConnectedException(RedisFailures.translate("reconnect to Redis at " + target.describe(),
                    down).getMessage() + " Lock calls fail at once until Lettuce, which keeps trying, reconnects.",
                    down);
        }
        RuntimeException why = failure;
        String message = "Not connected to Redis at " + target.describe() + " yet; distlock keeps trying to connect";
        throw why == null ? new NotConnectedException(message) : new NotConnectedException(message
                + ". Last attempt: " + why.getMessage(), why);
    }

    @Override
    public RedisClusterAsyncCommands<String, String> commands() {
        return connected().commands();
    }

    /**
     * @return the command scripts publish wake-ups with; before the connections are made, a call
     *         can publish nothing (its script fails on {@link #commands()}), so {@code publish}
     */
    @Override
    public String publishCommand() {
        RedisConnections made = connections;
        return made == null ? "publish" : made.publishCommand();
    }

    /**
     * @return the hash slot of a key on a cluster (one script may only touch one slot); a constant
     *         elsewhere, so batches are not cut needlessly. Known before connecting.
     */
    public ToIntFunction<String> slotOf() {
        return target.isCluster() ? SlotHash::getSlot : key -> 0;
    }

    /** @see RedisConnections#waitForReplicas */
    public CompletableFuture<Long> waitForReplicas(String key, int replicas, long timeoutMillis) {
        try {
            return connected().waitForReplicas(key, replicas, timeoutMillis);
        } catch (LockException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** @return how often a connection dropped (see {@link RedisConnections#drops()}); 0 before connecting */
    public long drops() {
        RedisConnections made = connections;
        return made == null ? 0 : made.drops();
    }

    /** @return a refresh of a cluster's topology (see {@link RedisConnections#refreshTopology()}) */
    CompletionStage<?> refreshTopology() {
        RedisConnections made = connections;
        return made == null ? CompletableFuture.completedFuture(null) : made.refreshTopology();
    }

    /** Stops trying to connect, and closes the connections if they were made. */
    @Override
    public void close() {
        RedisConnections made;
        synchronized (this) {
            closed = true;
            made = connections;
        }
        if (made != null) {
            made.close();
        }
    }
}

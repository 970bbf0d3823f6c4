package io.distlock.core.pubsub;

import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.pubsub.api.async.RedisPubSubAsyncCommands;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * The client's lock channel subscriptions, all multiplexed on one pub/sub connection. One Redis
 * subscription per channel however many threads wait on it, reference counted: subscribed by the
 * first waiter, unsubscribed when the last one leaves. Subscribe and unsubscribe of one channel
 * are issued under that channel's map entry, so they reach Redis in the order they were decided.
 *
 * <p>After a reconnect Lettuce subscribes again by itself; a message published while the
 * connection was down is lost, so on that re-subscription a sleeper of the channel is woken to
 * try again.
 *
 * @param <T> what sleeps on the channels (the engine's acquisitions)
 */
public final class LockSubscriptions<T> {

    /** Message that wakes one local waiter (an exclusive lock became free). */
    public static final String WAKE_ONE = "0";
    /**
     * Message that wakes every local waiter (a lock that admits many, such as readers, became
     * free).
     */
    public static final String WAKE_ALL = "*";
    /** Prefix of a message that names the one waiter to wake: {@code @<holder id>} (fair locks). */
    public static final String WAKE_HOLDER = "@";

    private final RedisPubSubAsyncCommands<String, String> commands;
    private final boolean sharded;
    private final Function<T, String> idOf;
    private final ConcurrentHashMap<String, WakeUpChannel<T>> channels = new ConcurrentHashMap<>();
    private final AtomicBoolean closed = new AtomicBoolean();

    /**
     * @param connection the client's dedicated pub/sub connection
     * @param sharded    whether to use sharded pub/sub ({@code SSUBSCRIBE}, Redis 7 cluster),
     *                   which Lettuce sends to the node serving the channel's slot
     * @param idOf       a sleeper's id, matched against messages that name one sleeper
     */
    public LockSubscriptions(StatefulRedisPubSubConnection<String, String> connection, boolean sharded,
                             Function<T, String> idOf) {
        this.commands = connection.async();
        this.sharded = sharded;
        this.idOf = idOf;
        connection.addListener(new RedisPubSubAdapter<>() {
            @Override
            public void message(String channel, String message) {
                released(channel, message);
            }

            @Override
            public void smessage(String channel, String message) {
                released(channel, message);
            }

            @Override
            public void subscribed(String channel, long count) {
                confirmed(channel);
            }

            @Override
            public void ssubscribed(String channel, long count) {
                confirmed(channel);
            }
        });
    }

    private void released(String channel, String message) {
        WakeUpChannel<T> waiters = channels.get(channel);
        if (waiters == null) {
            return;
        }
        if (message.startsWith(WAKE_HOLDER)) {
            waiters.wake(message.substring(WAKE_HOLDER.length()));  // a fair lock names whose turn it is
        } else if (WAKE_ALL.equals(message)) {
            waiters.wakeAll();
        } else {
            waiters.wakeOne();
        }
    }

    private void confirmed(String channel) {
        // Not get(): the first confirmation can arrive while join() is still putting the channel
        // in the map (it subscribes from inside compute); computeIfPresent waits for that. Missed,
        // the first re-subscription after a reconnect would be taken for the first subscription,
        // and a release published while the connection was down would wake nobody.
        WakeUpChannel<T> waiters = channels.computeIfPresent(channel, (name, current) -> current);
        if (waiters != null && waiters.confirmations.incrementAndGet() > 1) {
            // A re-subscription after reconnect: releases made while we were away
            // published to nobody, so let a waiter look again.
            waiters.wakeOne();
        }
    }

    /**
     * Joins the waiters of a channel, subscribing in Redis if this is the first one. Wait for
     * {@link WakeUpChannel#subscribed()} before relying on wake-ups, and
     * {@link #leave(WakeUpChannel)} whatever the outcome.
     *
     * @param channel the lock's channel
     * @return the channel's waiters
     */
    public WakeUpChannel<T> join(String channel) {
        return channels.compute(channel, (name, current) -> {
            WakeUpChannel<T> waiters = current;
            if (waiters == null) {
                waiters = new WakeUpChannel<>(name, closed, idOf);
                CompletableFuture<Void> subscribed = waiters.subscribed;
                try {
                    (sharded ? commands.ssubscribe(name) : commands.subscribe(name)).whenComplete((ok, error) -> {
                        if (error != null) {
                            subscribed.completeExceptionally(error);
                        } else {
                            subscribed.complete(null);
                        }
                    });
                } catch (RuntimeException e) {
                    subscribed.completeExceptionally(e);
                }
            }
            waiters.references++;
            return waiters;
        });
    }

    /**
     * Leaves a channel joined with {@link #join(String)}; the last one to leave unsubscribes.
     *
     * @param waiters what {@link #join(String)} returned (or would have)
     */
    public void leave(WakeUpChannel<T> waiters) {
        channels.computeIfPresent(waiters.channel(), (name, current) -> {
            if (current != waiters || --current.references > 0) {
                return current;
            }
            try {
                if (sharded) {
                    commands.sunsubscribe(name);
                } else {
                    commands.unsubscribe(name);
                }
            } catch (RuntimeException e) {
                // The connection is closed or broken: there is no subscription left to end.
            }
            return null;
        });
    }

    /**
     * The client is closing: every current and later wait ends at once, so waiting acquisitions
     * try once more and fail on the closed connection instead of sleeping on a timer that will
     * never fire.
     */
    public void close() {
        closed.set(true);
        channels.values().forEach(WakeUpChannel::endAll);
    }

    /**
     * @param channel a lock channel
     * @return its local sleepers if somebody of this client waits on it, else {@code null}
     */
    public WakeUpChannel<T> find(String channel) {
        return channels.get(channel);
    }

    /** @return number of channels subscribed now (for tests and diagnostics) */
    public int activeChannels() {
        return channels.size();
    }
}

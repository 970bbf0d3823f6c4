package io.distlock.core.internal.pubsub;

import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.pubsub.api.async.RedisPubSubAsyncCommands;
import org.jspecify.annotations.Nullable;

import java.lang.System.Logger.Level;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The client's lock channel subscriptions, all multiplexed on one pub/sub connection. One Redis
 * subscription per channel however many threads wait on it, reference counted: subscribed by the
 * first waiter, unsubscribed once nobody has waited on it for {@value #LINGER_MILLIS} ms. A lock
 * waited for again within that time (a busy lock, contended across instances) costs no new
 * subscription, and its waiter can sleep right after its first attempt, since the release it waits
 * for is published on a subscription that was already there when it looked. Subscribe and
 * unsubscribe of one channel are issued under that channel's map entry, so they reach Redis in the
 * order they were decided.
 *
 * <p>After a reconnect Lettuce subscribes again by itself; a message published while the
 * connection was down is lost, so on that re-subscription every sleeper of the channel is woken
 * to try again. A sharded subscription the server ends because its slot moved (a cluster failover or
 * resharding) is subscribed again the same way.
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
    /** Prefix of a message that names the one waiter to wake: {@code @<hold id>} of its acquisition (fair locks). */
    public static final String WAKE_HOLDER = "@";

    private static final System.Logger LOG = System.getLogger(LockSubscriptions.class.getName());
    /** First pause before subscribing again after a failed re-subscription; doubles up to the maximum. */
    private static final long RESUBSCRIBE_FIRST_RETRY_MILLIS = 100;
    private static final long RESUBSCRIBE_MAX_RETRY_MILLIS = 2_000;
    /** How long a channel nobody waits on stays subscribed. */
    static final long LINGER_MILLIS = 1_000;

    private final RedisPubSubAsyncCommands<String, String> commands;
    private final boolean sharded;
    private final Function<T, String> idOf;
    private final ConcurrentHashMap<String, WakeUpChannel<T>> channels = new ConcurrentHashMap<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Per channel, our {@code SUNSUBSCRIBE}s whose answer has not come yet. */
    private final ConcurrentHashMap<String, Integer> ownUnsubscribes = new ConcurrentHashMap<>();
    private final Supplier<CompletionStage<?>> refreshRoutes;
    private final ScheduledExecutorService scheduler;

    /**
     * @param connection the client's dedicated pub/sub connection
     * @param sharded    whether to use sharded pub/sub ({@code SSUBSCRIBE}, Redis 7 cluster),
     *                   which Lettuce sends to the node serving the channel's slot
     * @param idOf       a sleeper's id, matched against messages that name one sleeper
     * @param refreshRoutes brings the client's slot map up to date before a channel the server
     *                   dropped is subscribed again (Lettuce routes {@code SSUBSCRIBE} by it, and
     *                   a subscription left on the slot's old node hears nothing)
     * @param scheduler     ends subscriptions nobody waits on any more
     */
    public LockSubscriptions(StatefulRedisPubSubConnection<String, String> connection, boolean sharded,
                             Function<T, String> idOf, Supplier<CompletionStage<?>> refreshRoutes,
                             ScheduledExecutorService scheduler) {
        this.commands = connection.async();
        this.sharded = sharded;
        this.idOf = idOf;
        this.refreshRoutes = refreshRoutes;
        this.scheduler = scheduler;
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

            @Override
            public void sunsubscribed(String channel, long count) {
                endedByServer(channel);
            }
        });
    }

    /**
     * A sharded subscription ended: either the last waiter left (then the channel is gone from the
     * map), or the server dropped it because the channel's slot moved to another node, as in a
     * failover. While waiters remain, subscribe again (routed to the slot's node by then) until it
     * works; the confirmation wakes the waiters, since a release may have been missed meanwhile.
     */
    private void endedByServer(String channel) {
        if (consumeOwnUnsubscribe(channel)) {
            return;
        }
        WakeUpChannel<T> waiters = channels.get(channel);
        if (waiters != null) {
            // The slot moved: learn where to before subscribing again, whatever the refresh's outcome.
            refreshRoutes.get().whenComplete((ok, error) -> resubscribe(waiters, RESUBSCRIBE_FIRST_RETRY_MILLIS));
        }
    }

    /** @return whether a {@code SUNSUBSCRIBE} of ours was waiting for this answer (and now is not) */
    private boolean consumeOwnUnsubscribe(String channel) {
        boolean[] own = new boolean[1];
        ownUnsubscribes.computeIfPresent(channel, (name, pending) -> {
            own[0] = true;
            return pending > 1 ? pending - 1 : null;
        });
        return own[0];
    }

    /**
     * Subscribes every sharded channel that has waiters again, e.g. after the cluster topology
     * changed: a master that died sends no {@code SUNSUBSCRIBE}, but its slots' channels now live
     * on the replica that replaced it. A channel still subscribed is merely confirmed again, which
     * wakes its waiters to look once more.
     */
    public void resubscribeAll() {
        if (sharded) {
            channels.values().forEach(waiters -> resubscribe(waiters, RESUBSCRIBE_FIRST_RETRY_MILLIS));
        }
    }

    private void resubscribe(WakeUpChannel<T> waiters, long retryMillis) {
        if (closed.get() || channels.get(waiters.channel()) != waiters) {
            return;
        }
        try {
            commands.ssubscribe(waiters.channel()).whenComplete((ok, error) -> {
                if (error != null) {
                    if (retryMillis == RESUBSCRIBE_FIRST_RETRY_MILLIS) {
                        LOG.log(Level.WARNING, () -> "Could not subscribe to " + waiters.channel() + " again ("
                                + error + "); retrying while its waiters wait");
                    }
                    CompletableFuture.delayedExecutor(retryMillis, TimeUnit.MILLISECONDS).execute(() ->
                            resubscribe(waiters, Math.min(retryMillis * 2, RESUBSCRIBE_MAX_RETRY_MILLIS)));
                }
            });
        } catch (RuntimeException e) {
            // The connection is closed: nothing left to subscribe on.
        }
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
            // A re-subscription after reconnect: releases made while we were away published to
            // nobody. Which kind of release was missed is unknown (a read-write lock's wakes every
            // reader), so every sleeper looks again, once per re-subscription.
            waiters.wakeAll();
        }
    }

    /**
     * Joins the waiters of a channel, subscribing in Redis if this is the first one, or if the
     * channel's subscription failed: its waiters failed with it, but a later one asks again, rather
     * than fail on the old failure while the channel lingers or others still leave it. Wait for
     * {@link WakeUpChannel#subscribed()} before relying on wake-ups, and
     * {@link #leave(WakeUpChannel)} whatever the outcome.
     *
     * @param channel the lock's channel
     * @return the channel's waiters
     */
    public WakeUpChannel<T> join(String channel) {
        return channels.compute(channel, (name, current) -> {
            WakeUpChannel<T> waiters = current;
            if (waiters == null || waiters.subscribed.isCompletedExceptionally()) {
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
     * Leaves a channel joined with {@link #join(String)}. Once nobody has waited on it for
     * {@value #LINGER_MILLIS} ms, it is unsubscribed.
     *
     * @param waiters what {@link #join(String)} returned (or would have)
     */
    public void leave(WakeUpChannel<T> waiters) {
        channels.computeIfPresent(waiters.channel(), (name, current) -> {
            if (current != waiters || --current.references > 0) {
                return current;
            }
            current.unusedSinceNanos = System.nanoTime();
            return current.expiryScheduled ? current : scheduleExpiry(current, LINGER_MILLIS);
        });
    }

    /**
     * Unsubscribes the channel if nobody has waited on it for {@value #LINGER_MILLIS} ms; looks
     * again later if somebody did meanwhile and left again.
     */
    private void expire(WakeUpChannel<T> waiters) {
        channels.computeIfPresent(waiters.channel(), (name, current) -> {
            if (current != waiters) {
                return current;
            }
            if (current.references > 0) {
                current.expiryScheduled = false;  // the next one to leave it last schedules it again
                return current;
            }
            long unusedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - current.unusedSinceNanos);
            return unusedMillis < LINGER_MILLIS ? scheduleExpiry(current, LINGER_MILLIS - unusedMillis)
                    : unsubscribe(current);
        });
    }

    /** Called under the channel's map entry; returns what the entry keeps. */
    private @Nullable WakeUpChannel<T> scheduleExpiry(WakeUpChannel<T> waiters, long delayMillis) {
        try {
            scheduler.schedule(() -> expire(waiters), delayMillis, TimeUnit.MILLISECONDS);
            waiters.expiryScheduled = true;
            return waiters;
        } catch (RejectedExecutionException closing) {
            return unsubscribe(waiters);
        }
    }

    /** Called under the channel's map entry; returns {@code null}, which removes it. */
    private @Nullable WakeUpChannel<T> unsubscribe(WakeUpChannel<T> waiters) {
        String name = waiters.channel();
        try {
            if (sharded) {
                ownUnsubscribes.merge(name, 1, Integer::sum);  // before sending: the answer may come first
                commands.sunsubscribe(name);
            } else {
                commands.unsubscribe(name);
            }
        } catch (RuntimeException e) {
            // The connection is closed or broken: there is no subscription left to end.
        }
        return null;
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
    public @Nullable WakeUpChannel<T> find(String channel) {
        return channels.get(channel);
    }

    /**
     * @return number of channels subscribed now, including those nobody has waited on for less
     *         than {@value #LINGER_MILLIS} ms (for tests and diagnostics)
     */
    public int activeChannels() {
        return channels.size();
    }
}

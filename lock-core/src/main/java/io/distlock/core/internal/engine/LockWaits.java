package io.distlock.core.internal.engine;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.distlock.core.LockException;
import io.distlock.core.LockInfo;
import io.distlock.core.internal.pubsub.LockSubscriptions;
import io.distlock.core.internal.pubsub.WakeUpChannel;
import io.distlock.core.internal.pubsub.WakeUpChannel.Wake;
import org.jspecify.annotations.Nullable;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The acquisitions of one client that wait for their lock, and the lock channels they sleep on
 * ({@link LockSubscriptions}): an acquisition joins its lock's channel when it has to wait, and
 * leaves it when it ends, whatever its outcome.
 */
final class LockWaits {

    private final RedisConnector connector;
    private final ScheduledExecutorService scheduler;
    /** The channels, made on the first wait once the client is connected ({@link #channels()}). */
    private volatile @Nullable LockSubscriptions<Acquisition> subscriptions;
    @GuardedBy("this")
    private boolean closed;
    /** Acquisitions that joined their lock's channel, for {@link #addWaiting}. */
    private final Set<Acquisition> waiting = ConcurrentHashMap.newKeySet();

    /**
     * @param connector the client's way to Redis: once connected, its pub/sub connection carries
     *                  the channels, and a change of topology subscribes them again
     * @param scheduler the client's scheduler: times sleeps, and ends subscriptions nobody uses
     */
    LockWaits(RedisConnector connector, ScheduledExecutorService scheduler) {
        this.connector = connector;
        this.scheduler = scheduler;
    }

    /**
     * @return the channels, made once, on the connections as soon as the client has them
     *         (an acquisition needs a channel only after an attempt, which needs the connection)
     * @throws LockException if the client is not connected yet, or closed
     */
    private LockSubscriptions<Acquisition> channels() {
        LockSubscriptions<Acquisition> channels = subscriptions;
        if (channels != null) {
            return channels;
        }
        synchronized (this) {
            if (subscriptions == null) {
                RedisConnections connections = connector.current();
                if (connections == null || closed) {
                    throw new LockException("Not connected to Redis" + (closed ? ": the client is closed" : " yet"));
                }
                LockSubscriptions<Acquisition> made = new LockSubscriptions<>(connections.pubSub(),
                        connections.shardedPubSub(), Acquisition::holdId, connections::refreshTopology, scheduler);
                connections.onTopologyChange(made::resubscribeAll);
                subscriptions = made;
            }
            return Objects.requireNonNull(subscriptions);
        }
    }

    /**
     * An acquisition starts waiting: it joins its lock's channel (see {@link LockSubscriptions#join})
     * as a sleeper named by its hold id.
     *
     * @param acquisition who waits
     * @param channel     its lock's channel
     * @return the channel's sleepers
     */
    WakeUpChannel<Acquisition> join(Acquisition acquisition, String channel) {
        WakeUpChannel<Acquisition> sleepers = channels().join(channel);
        sleepers.enter(acquisition.holdId());
        waiting.add(acquisition);
        return sleepers;
    }

    /**
     * An acquisition stops waiting.
     *
     * @param acquisition who waited
     * @param sleepers    what {@link #join} returned to it
     */
    void leave(Acquisition acquisition, WakeUpChannel<Acquisition> sleepers) {
        sleepers.forget(acquisition.holdId());
        channels().leave(sleepers);
        waiting.remove(acquisition);
    }

    /**
     * Sleeps on a joined channel (see {@link WakeUpChannel#sleep}), timed by the client's scheduler.
     *
     * @param sleepers      the channel joined
     * @param acquisition   who sleeps
     * @param timeoutMillis longest sleep
     * @param seenWakeUps   the channel's wake-ups before the sleeper's last look at the lock
     * @return how the sleep ended
     */
    CompletableFuture<Wake> sleep(WakeUpChannel<Acquisition> sleepers, Acquisition acquisition, long timeoutMillis,
                                  long seenWakeUps) {
        return sleepers.sleep(acquisition, timeoutMillis, scheduler, seenWakeUps);
    }

    /**
     * @param channel a lock channel
     * @return its local sleepers if somebody of this client waits on it, else {@code null}
     */
    @Nullable WakeUpChannel<Acquisition> find(String channel) {
        LockSubscriptions<Acquisition> channels = subscriptions;
        return channels == null ? null : channels.find(channel);
    }

    /**
     * @param channel a lock channel
     * @return whether somebody of this client waits on it, so that Redis has (or is about to have)
     *         this client's subscription to it
     */
    boolean listensOn(String channel) {
        return find(channel) != null;
    }

    /** @param channel wakes one local sleeper on it, if it has any */
    void wakeOne(String channel) {
        WakeUpChannel<Acquisition> sleepers = find(channel);
        if (sleepers != null) {
            sleepers.wakeOne();
        }
    }

    /**
     * @param locks    where to add a {@link LockInfo.State#WAITING} entry per waiting acquisition
     * @param now      the time now
     * @param nowNanos {@link System#nanoTime()} now
     */
    void addWaiting(List<LockInfo> locks, Instant now, long nowNanos) {
        for (Acquisition acquisition : waiting) {
            locks.add(new LockInfo(acquisition.lockName(), acquisition.protocol().type(), LockInfo.State.WAITING,
                    acquisition.holderId(), 0, null, now.minusNanos(nowNanos - acquisition.startNanos()), false));
        }
    }

    /** @return number of lock channels subscribed now (see {@code LockClient.activeSubscriptions()}) */
    int activeChannels() {
        LockSubscriptions<Acquisition> channels = subscriptions;
        return channels == null ? 0 : channels.activeChannels();
    }

    /** Ends every current and later wait (see {@link LockSubscriptions#close()}). */
    void close() {
        LockSubscriptions<Acquisition> channels;
        synchronized (this) {
            closed = true;
            channels = subscriptions;
        }
        if (channels != null) {
            channels.close();
        }
    }
}

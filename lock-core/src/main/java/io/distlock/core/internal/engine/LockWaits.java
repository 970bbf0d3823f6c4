package io.distlock.core.internal.engine;

import io.distlock.core.LockInfo;
import io.distlock.core.internal.pubsub.LockSubscriptions;
import io.distlock.core.internal.pubsub.WakeUpChannel;
import io.distlock.core.internal.pubsub.WakeUpChannel.Wake;
import org.jspecify.annotations.Nullable;

import java.time.Instant;
import java.util.List;
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

    private final LockSubscriptions<Acquisition> subscriptions;
    private final ScheduledExecutorService scheduler;
    /** Acquisitions that joined their lock's channel, for {@link #addWaiting}. */
    private final Set<Acquisition> waiting = ConcurrentHashMap.newKeySet();

    /**
     * @param connections the client's connections: their pub/sub connection carries the channels,
     *                    and a change of topology subscribes them again
     * @param scheduler   the client's scheduler: times sleeps, and ends subscriptions nobody uses
     */
    LockWaits(RedisConnections connections, ScheduledExecutorService scheduler) {
        this.subscriptions = new LockSubscriptions<>(connections.pubSub(), connections.shardedPubSub(),
                Acquisition::holdId, connections::refreshTopology, scheduler);
        this.scheduler = scheduler;
        connections.onTopologyChange(subscriptions::resubscribeAll);
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
        WakeUpChannel<Acquisition> sleepers = subscriptions.join(channel);
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
        subscriptions.leave(sleepers);
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
        return subscriptions.find(channel);
    }

    /**
     * @param channel a lock channel
     * @return whether somebody of this client waits on it, so that Redis has (or is about to have)
     *         this client's subscription to it
     */
    boolean listensOn(String channel) {
        return subscriptions.find(channel) != null;
    }

    /** @param channel wakes one local sleeper on it, if it has any */
    void wakeOne(String channel) {
        WakeUpChannel<Acquisition> sleepers = subscriptions.find(channel);
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
        return subscriptions.activeChannels();
    }

    /** Ends every current and later wait (see {@link LockSubscriptions#close()}). */
    void close() {
        subscriptions.close();
    }
}

package io.distlock.core.pubsub;

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The local waiters of one lock channel. Each message on the channel (the lock became free) wakes
 * exactly one waiter, so the threads of one JVM that wait for the same lock do not all ask Redis
 * at once; the woken one tries, and the next release wakes the next. A message that finds nobody
 * waiting is kept (one at most) for the next waiter.
 *
 * <p>Reference counted by {@link LockSubscriptions}: the Redis subscription lives as long as
 * somebody waits.
 */
public final class WakeUpChannel {

    private final String channel;
    private final AtomicBoolean closed;
    private final ReentrantLock lock = new ReentrantLock();
    private final ArrayDeque<CompletableFuture<Boolean>> waiters = new ArrayDeque<>();
    private boolean pendingWakeUp;
    /** Guarded by the map entry of {@link LockSubscriptions}. */
    int references;
    /** Subscriptions Redis confirmed for this channel: more than one means Lettuce re-subscribed. */
    final AtomicInteger confirmations = new AtomicInteger();
    /** Completes when Redis confirmed the subscription. */
    final CompletableFuture<Void> subscribed = new CompletableFuture<>();

    WakeUpChannel(String channel, AtomicBoolean closed) {
        this.channel = channel;
        this.closed = closed;
    }

    /** @return completes when Redis confirmed the subscription, fails if it could not subscribe */
    public CompletableFuture<Void> subscribed() {
        return subscribed;
    }

    /** @return the Redis channel name */
    public String channel() {
        return channel;
    }

    /**
     * Waits for the next wake-up.
     *
     * @param timeoutMillis give up after this long (typically the holder's remaining lease)
     * @param timer         schedules the timeout
     * @return a future of {@code true} when woken by a message, {@code false} on timeout
     */
    public CompletableFuture<Boolean> awaitWakeUp(long timeoutMillis, ScheduledExecutorService timer) {
        CompletableFuture<Boolean> waiter = new CompletableFuture<>();
        lock.lock();
        try {
            if (closed.get()) {
                waiter.complete(false);
                return waiter;
            }
            if (pendingWakeUp) {
                pendingWakeUp = false;
                waiter.complete(true);
                return waiter;
            }
            waiters.add(waiter);
        } finally {
            lock.unlock();
        }
        try {
            ScheduledFuture<?> timeout = timer.schedule(() -> timeOut(waiter), Math.max(1, timeoutMillis),
                    TimeUnit.MILLISECONDS);
            waiter.whenComplete((woken, error) -> timeout.cancel(false));
        } catch (RejectedExecutionException e) {
            timeOut(waiter); // the client is closing: end the wait now
        }
        return waiter;
    }

    /**
     * Wakes one waiter, or keeps the wake-up for the next one if nobody waits. Called for every
     * message on the channel, and by a woken waiter that leaves without taking the lock so the
     * wake-up is not lost.
     */
    public void wakeOne() {
        while (true) {
            CompletableFuture<Boolean> waiter;
            lock.lock();
            try {
                waiter = waiters.poll();
                if (waiter == null) {
                    pendingWakeUp = true;
                    return;
                }
            } finally {
                lock.unlock();
            }
            if (waiter.complete(true)) {
                return;
            }
        }
    }

    /** Ends every current wait as if timed out; used when the client closes (later waits end at once). */
    void endAllWaits() {
        CompletableFuture<Boolean> waiter;
        while (true) {
            lock.lock();
            try {
                waiter = waiters.poll();
            } finally {
                lock.unlock();
            }
            if (waiter == null) {
                return;
            }
            waiter.complete(false);
        }
    }

    private void timeOut(CompletableFuture<Boolean> waiter) {
        lock.lock();
        try {
            waiters.remove(waiter);
        } finally {
            lock.unlock();
        }
        waiter.complete(false);
    }
}

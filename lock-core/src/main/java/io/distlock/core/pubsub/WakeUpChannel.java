package io.distlock.core.pubsub;

import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * The local sleepers of one lock channel, in arrival order. Each message on the channel (the
 * lock became free) wakes exactly one sleeper, so the threads of one JVM that wait for the same
 * lock do not all ask Redis at once; the woken one tries, and the next release wakes the next. A
 * message that finds nobody sleeping is kept (one at most) for the next sleeper. A releasing
 * holder of this client may instead {@link #claimOne() claim} the longest sleeper to hand the
 * lock to it directly.
 *
 * <p>Reference counted by {@link LockSubscriptions}: the Redis subscription lives as long as
 * somebody waits.
 *
 * @param <T> what sleeps here (the engine's acquisitions)
 */
public final class WakeUpChannel<T> {

    /** How a sleep ended. */
    public enum Wake {
        /** A release message arrived: try to acquire. */
        RELEASED,
        /** The sleep's time ran out (or the client closed): try again or give up. */
        TIMED_OUT,
        /** A releasing holder of this client took this sleeper to hand the lock to it. */
        CLAIMED
    }

    private record Sleep<T>(T sleeper, CompletableFuture<Wake> wake) {
    }

    private final String channel;
    private final AtomicBoolean closed;
    private final Function<T, String> idOf;
    /** Ids woken by name before they slept: their next sleep ends at once. */
    private final Set<String> pendingById = new HashSet<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final ArrayDeque<Sleep<T>> sleeps = new ArrayDeque<>();
    private boolean pendingWakeUp;
    /** Guarded by the map entry of {@link LockSubscriptions}. */
    int references;
    /** Subscriptions Redis confirmed for this channel: more than one means Lettuce re-subscribed. */
    final AtomicInteger confirmations = new AtomicInteger();
    /** Completes when Redis confirmed the subscription. */
    final CompletableFuture<Void> subscribed = new CompletableFuture<>();

    WakeUpChannel(String channel, AtomicBoolean closed, Function<T, String> idOf) {
        this.channel = channel;
        this.closed = closed;
        this.idOf = idOf;
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
     * Sleeps until the next wake-up.
     *
     * @param sleeper       who sleeps (returned by {@link #claimOne()} if claimed)
     * @param timeoutMillis give up after this long (typically the holder's remaining lease)
     * @param timer         schedules the timeout
     * @return how the sleep ended; completing it with {@link Wake#TIMED_OUT} ends it early
     */
    public CompletableFuture<Wake> sleep(T sleeper, long timeoutMillis, ScheduledExecutorService timer) {
        CompletableFuture<Wake> wake = new CompletableFuture<>();
        Sleep<T> sleep = new Sleep<>(sleeper, wake);
        lock.lock();
        try {
            if (closed.get()) {
                wake.complete(Wake.TIMED_OUT);
                return wake;
            }
            if (pendingWakeUp || pendingById.remove(idOf.apply(sleeper))) {
                pendingWakeUp = false;
                wake.complete(Wake.RELEASED);
                return wake;
            }
            sleeps.add(sleep);
        } finally {
            lock.unlock();
        }
        try {
            ScheduledFuture<?> timeout = timer.schedule(() -> end(sleep, Wake.TIMED_OUT), Math.max(1, timeoutMillis),
                    TimeUnit.MILLISECONDS);
            wake.whenComplete((how, error) -> timeout.cancel(false));
        } catch (RejectedExecutionException e) {
            end(sleep, Wake.TIMED_OUT); // the client is closing: end the sleep now
        }
        return wake;
    }

    /**
     * Ends a sleep early, as timed out, and forgets it at once (a waiter that gives up must not
     * stay queued until a release reaches it).
     *
     * @param wake what {@link #sleep} returned
     */
    public void endSleep(CompletableFuture<Wake> wake) {
        lock.lock();
        try {
            sleeps.removeIf(sleep -> sleep.wake() == wake);
        } finally {
            lock.unlock();
        }
        wake.complete(Wake.TIMED_OUT);
    }

    /**
     * Wakes one sleeper, or keeps the wake-up for the next one if nobody sleeps. Called for every
     * message on the channel, and by a woken sleeper that leaves without taking the lock so the
     * wake-up is not lost.
     */
    public void wakeOne() {
        takeFirst(Wake.RELEASED, true);
    }

    /**
     * Wakes every sleeper (the lock may admit many at once, like readers) and keeps a wake-up for
     * the next one to sleep: it may be one whose attempt was on its way while the lock was freed.
     */
    public void wakeAll() {
        while (takeFirst(Wake.RELEASED, true) != null) {
            // woke one more
        }
    }

    /**
     * Forgets a wake-up kept for this id ({@link #wake(String)} before it slept): its
     * acquisition ended, and a later one must not be woken by an old message.
     *
     * @param id a sleeper's id
     */
    public void forget(String id) {
        lock.lock();
        try {
            pendingById.remove(id);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Wakes the sleeper with this id (a fair lock names the waiter whose turn it is), or, if it
     * does not sleep right now, ends its next sleep at once.
     *
     * @param id the sleeper's id
     */
    public void wake(String id) {
        Sleep<T> found = null;
        lock.lock();
        try {
            for (Sleep<T> sleep : sleeps) {
                if (id.equals(idOf.apply(sleep.sleeper()))) {
                    found = sleep;
                    break;
                }
            }
            if (found == null) {
                pendingById.add(id);
                return;
            }
            sleeps.remove(found);
        } finally {
            lock.unlock();
        }
        found.wake().complete(Wake.RELEASED);
    }

    /**
     * Takes the longest sleeper, ending its sleep with {@link Wake#CLAIMED}.
     *
     * @return the claimed sleeper, or {@code null} if nobody sleeps
     */
    public T claimOne() {
        Sleep<T> claimed = takeFirst(Wake.CLAIMED, false);
        return claimed == null ? null : claimed.sleeper();
    }

    /** Ends every current sleep as timed out; used when the client closes (later sleeps end at once). */
    void endAll() {
        while (takeFirst(Wake.TIMED_OUT, false) != null) {
            // ended one
        }
    }

    /**
     * Ends the first sleep that is still running with {@code how}.
     *
     * @param keepIfNone with nobody sleeping, keep the wake-up for the next sleeper
     */
    private Sleep<T> takeFirst(Wake how, boolean keepIfNone) {
        while (true) {
            Sleep<T> sleep;
            lock.lock();
            try {
                sleep = sleeps.poll();
                if (sleep == null) {
                    pendingWakeUp |= keepIfNone;
                    return null;
                }
            } finally {
                lock.unlock();
            }
            if (sleep.wake().complete(how)) {
                return sleep;
            }
        }
    }

    private void end(Sleep<T> sleep, Wake how) {
        lock.lock();
        try {
            sleeps.remove(sleep);
        } finally {
            lock.unlock();
        }
        sleep.wake().complete(how);
    }
}

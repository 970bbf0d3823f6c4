package io.distlock.core.internal.pubsub;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import org.jspecify.annotations.Nullable;

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
import java.util.function.Predicate;

/**
 * The local sleepers of one lock channel, in arrival order. A release message on the channel (the
 * lock became free) wakes exactly one sleeper, so the threads of one JVM that wait for the same
 * lock do not all ask Redis at once; the woken one tries, and the next release wakes the next.
 * Every release message is counted ({@link #wakeUps()}): a sleeper whose last look at the lock
 * came before it does not sleep, whether or not it found somebody sleeping. A wake-up that names a
 * sleeper (a fair lock's turn) is kept for it if it joined and is awake; one that names an id the
 * channel does not know is counted like a release message, since it may name an acquisition whose
 * first look is still on its way. A releasing holder of this client may instead
 * {@link #claimFirst claim} the longest sleeper to hand the lock to it directly.
 *
 * <p>Reference counted by {@link LockSubscriptions}: the Redis subscription lives as long as
 * somebody waits, and a little longer, so a lock waited for again soon needs no new subscription.
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
    /** Ids of the sleepers that joined and have not left ({@link #enter}, {@link #forget}). */
    @GuardedBy("lock")
    private final Set<String> members = new HashSet<>();
    /** Members woken by name before they slept: their next sleep ends at once. */
    @GuardedBy("lock")
    private final Set<String> pendingById = new HashSet<>();
    private final ReentrantLock lock = new ReentrantLock();
    @GuardedBy("lock")
    private final ArrayDeque<Sleep<T>> sleeps = new ArrayDeque<>();
    /**
     * Wake-ups so far ({@link #wakeOne()}, {@link #wakeAll()}, and {@link #wake(String)} of an id
     * that is not a member).
     */
    @GuardedBy("lock")
    private long wakeUps;
    /** Guarded by the map entry of {@link LockSubscriptions}. */
    int references;
    /** When {@link #references} last fell to 0, as {@link System#nanoTime()}; guarded likewise. */
    long unusedSinceNanos;
    /** Whether an expiry check of this channel is scheduled; guarded likewise. */
    boolean expiryScheduled;
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
     * @return wake-ups counted so far (release messages, and turns for ids this channel does not
     *         know): read before an attempt, handed to {@link #sleep} after it
     */
    public long wakeUps() {
        lock.lock();
        try {
            return wakeUps;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Sleeps until the next wake-up. A sleeper whose last look at the lock was on its way while
     * a release woke this channel does not sleep at all: that release may be the one its look
     * missed (several sleepers can be in that state at once when a release wakes all). This is
     * how no release is missed: every sleeper passes the wake-ups it saw before its last look.
     *
     * @param sleeper       who sleeps (returned by {@link #claimFirst} if claimed)
     * @param timeoutMillis give up after this long (typically the holder's remaining lease)
     * @param timer         schedules the timeout
     * @param seenWakeUps   {@link #wakeUps()} read before the sleeper's last look at the lock
     * @return how the sleep ended; completing it with {@link Wake#TIMED_OUT} ends it early
     */
    public CompletableFuture<Wake> sleep(T sleeper, long timeoutMillis, ScheduledExecutorService timer,
                                         long seenWakeUps) {
        CompletableFuture<Wake> wake = new CompletableFuture<>();
        Sleep<T> sleep = new Sleep<>(sleeper, wake);
        lock.lock();
        try {
            if (closed.get()) {
                wake.complete(Wake.TIMED_OUT);
                return wake;
            }
            if (wakeUps != seenWakeUps) {
                wake.complete(Wake.RELEASED);
                return wake;
            }
            if (pendingById.remove(idOf.apply(sleeper))) {
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
     * Counts a wake-up and wakes one sleeper, if any. Called for every release message on the
     * channel, and by a woken sleeper that leaves without taking the lock so the wake-up is not lost.
     */
    public void wakeOne() {
        countWakeUp();
        takeFirst(Wake.RELEASED);
    }

    /** Counts a wake-up and wakes every sleeper (the lock may admit many at once, like readers). */
    public void wakeAll() {
        countWakeUp();
        while (takeFirst(Wake.RELEASED) != null) {
            // woke one more
        }
    }

    private void countWakeUp() {
        lock.lock();
        try {
            wakeUps++;
        } finally {
            lock.unlock();
        }
    }

    /**
     * A sleeper joins: from now until {@link #forget}, a wake-up that names it while it does not
     * sleep is kept for its next sleep.
     *
     * @param id the sleeper's id
     */
    public void enter(String id) {
        lock.lock();
        try {
            members.add(id);
        } finally {
            lock.unlock();
        }
    }

    /**
     * The sleeper left (its acquisition ended): a wake-up kept for it is dropped, and one that
     * names it later is not kept (ids are never used again, so it would be kept for ever).
     *
     * @param id a sleeper's id
     */
    public void forget(String id) {
        lock.lock();
        try {
            members.remove(id);
            pendingById.remove(id);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Wakes the sleeper with this id (a fair lock names the waiter whose turn it is), or, if it
     * joined and does not sleep right now, ends its next sleep at once. An id that has not joined
     * may be an acquisition whose first look queued it and got its turn before the answer came
     * back (it joins only then): the wake-up is counted, so every look on its way when it came is
     * followed by another look instead of a sleep. Nothing is kept for such an id, which may as
     * well be one that left and never comes back.
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
                if (members.contains(id)) {
                    pendingById.add(id);
                } else {
                    wakeUps++;
                }
                return;
            }
            sleeps.remove(found);
        } finally {
            lock.unlock();
        }
        found.wake().complete(Wake.RELEASED);
    }

    /**
     * Takes the longest sleeper that can take what is handed over (sleepers of other kinds of lock
     * share the channel), ending its sleep with {@link Wake#CLAIMED}.
     *
     * @param eligible which sleepers may be claimed
     * @return the claimed sleeper, or {@code null} if no such sleeper sleeps
     */
    public @Nullable T claimFirst(Predicate<T> eligible) {
        while (true) {
            Sleep<T> claimed = null;
            lock.lock();
            try {
                for (Sleep<T> sleep : sleeps) {
                    if (eligible.test(sleep.sleeper())) {
                        claimed = sleep;
                        break;
                    }
                }
                if (claimed == null) {
                    return null;
                }
                sleeps.remove(claimed);
            } finally {
                lock.unlock();
            }
            if (claimed.wake().complete(Wake.CLAIMED)) {
                return claimed.sleeper();
            }
        }
    }

    /** Ends every current sleep as timed out; used when the client closes (later sleeps end at once). */
    void endAll() {
        while (takeFirst(Wake.TIMED_OUT) != null) {
            // ended one
        }
    }

    /** Ends the first sleep that is still running with {@code how}. */
    private @Nullable Sleep<T> takeFirst(Wake how) {
        while (true) {
            Sleep<T> sleep;
            lock.lock();
            try {
                sleep = sleeps.poll();
                if (sleep == null) {
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

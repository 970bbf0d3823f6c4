package io.distlock.core.internal.engine;

import io.distlock.core.LockLostException;
import org.jspecify.annotations.Nullable;

import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The signals holders asked for ({@code RedisLock.whenLost}): one per hold, completed with a
 * {@link LockLostException} when its lease is lost, never for a hold released normally.
 *
 * <p>Lost means either of two things. Redis no longer has the hold (the watchdog, a re-entry or a
 * release found it gone: {@link #lost}). Or its lease could end before anything confirms it again:
 * an alarm per signalled hold fires a fifth of a lease ({@code 1/}{@value #MARGIN_DIVISOR}) before the earliest
 * moment the lease can end on the server, judged by this client's clock and counted from the
 * send of the latest command Redis confirmed set it (the grant, a re-entry, a renewal), since the
 * server ran it later. With the watchdog's default 30 s lease that is 6 s before, after three
 * renewal tries in a row failed; with an explicit lease, a fifth of it before it runs out. The
 * holder then still has that margin to stop its work before another holder can get in.
 *
 * <p>Only holds whose holder asked for the signal are tracked, so other holds cost nothing.
 */
final class LossSignals {

    /** The alarm fires this fraction of the hold's lease before the lease can end. */
    static final int MARGIN_DIVISOR = 5;

    private final ScheduledExecutorService scheduler;
    private final Executor callers;
    private final ConcurrentHashMap<Hold, Signal> signals = new ConcurrentHashMap<>();
    private volatile boolean closed;

    /**
     * One hold's signal: who listens, whether it fired, and its alarm. Every look at the hold runs
     * on the scheduler's one thread; a look that a later one replaced (a new lease, a new
     * acquisition) does nothing.
     */
    private static final class Signal {
        /** One future per {@code whenLost} call, until it completes or its caller cancels it. */
        final Set<CompletableFuture<LockLostException>> listeners = ConcurrentHashMap.newKeySet();
        final AtomicReference<@Nullable LockLostException> fired = new AtomicReference<>();
        final AtomicLong generation = new AtomicLong();
        volatile @Nullable ScheduledFuture<?> alarm;
    }

    /**
     * @param scheduler runs the alarms: the client's one scheduler thread
     * @param callers   completes the listeners' futures: the client's caller threads, never the
     *                  scheduler's or Lettuce's
     */
    LossSignals(ScheduledExecutorService scheduler, Executor callers) {
        this.scheduler = scheduler;
        this.callers = callers;
    }

    /**
     * Call it under the registry's lock for the hold, while its holder holds it, so that the hold
     * cannot be forgotten meanwhile (a signal of a forgotten hold would never be ended).
     *
     * @param hold a hold its holder has
     * @return a new listener of its signal (armed by the first): completes with the loss;
     *         cancelling it stops listening. Completed already if the hold was found lost
     */
    @SuppressWarnings("CollectionUndefinedEquality")  // a listener is itself: identity is what is meant
    CompletableFuture<LockLostException> of(Hold hold) {
        if (hold.lost()) {
            return CompletableFuture.completedFuture(goneException(hold));
        }
        boolean[] created = new boolean[1];
        Signal signal = signals.computeIfAbsent(hold, h -> {
            created[0] = true;
            return new Signal();
        });
        if (created[0]) {
            lookAgain(hold, signal);
            if (hold.lost()) {
                lost(hold);  // found lost while this signal was being armed
            }
            if (closed) {
                close();  // closed while it was being armed
            }
        }
        CompletableFuture<LockLostException> listener = new CompletableFuture<>();
        signal.listeners.add(listener);
        listener.whenComplete((loss, cancelled) -> signal.listeners.remove(listener));
        LockLostException fired = signal.fired.get();
        if (fired != null) {
            listener.complete(fired);  // fired while it was being added: nobody is attached yet
        }
        return listener;
    }

    /**
     * The hold's lease was set anew, maybe shorter (a composite's exact lease), or a new
     * acquisition joined a hold being released: its alarm is set again.
     *
     * @param hold a hold
     */
    void leaseChanged(Hold hold) {
        Signal signal = signals.get(hold);
        if (signal != null) {
            lookAgain(hold, signal);
        }
    }

    /** @param hold found gone from Redis (reported once): its signal, if armed, completes */
    void lost(Hold hold) {
        Signal signal = signals.remove(hold);
        if (signal != null) {
            cancelAlarm(signal);
            fire(signal, goneException(hold));
        }
    }

    /** @param hold ended and forgotten (released, or lost and reported): its signal no longer fires */
    void ended(Hold hold) {
        Signal signal = signals.remove(hold);
        if (signal != null) {
            cancelAlarm(signal);
        }
    }

    /** The client is closing: its leases are no longer renewed, nor released. Every armed signal completes. */
    void close() {
        closed = true;
        for (Hold hold : signals.keySet()) {
            Signal signal = signals.remove(hold);
            if (signal != null) {
                cancelAlarm(signal);
                fire(signal, new LockLostException(hold.lockName(), "The lock client was closed while lock '"
                        + hold.lockName() + "' was held: its lease is no longer renewed, and ends within "
                        + hold.leaseMillis() + " ms; stop the work before another holder gets in"));
            }
        }
    }

    /** Replaces every earlier look at the hold with one now, on the scheduler. */
    private void lookAgain(Hold hold, Signal signal) {
        long generation = signal.generation.incrementAndGet();
        cancelAlarm(signal);
        try {
            scheduler.execute(() -> look(hold, signal, generation));
        } catch (RejectedExecutionException e) {
            // the client is closing: close() completes the signal
        }
    }

    /**
     * Fires the signal if the lease could end within the margin, else sets the alarm for when it
     * could. Fired only while the holder holds the hold (atomically with releases taking it out),
     * so a hold released normally is never signalled; a hold being released is left alone until a
     * new acquisition joins it ({@link #leaseChanged}).
     */
    private void look(Hold hold, Signal signal, long generation) {
        if (signals.get(hold) != signal || signal.generation.get() != generation) {
            return;  // completed, ended, or looked at anew
        }
        long now = System.nanoTime();
        long end = hold.leaseEndsNotBeforeNanos();
        long untilAlarm = end - TimeUnit.MILLISECONDS.toNanos(hold.leaseMillis()) / MARGIN_DIVISOR - now;
        if (untilAlarm > 0) {
            try {
                signal.alarm = scheduler.schedule(() -> look(hold, signal, generation), untilAlarm,
                        TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException e) {
                // the client is closing: close() completes the signal
            }
            return;
        }
        boolean[] fired = new boolean[1];
        hold.whileHeld(() -> fired[0] = signals.remove(hold, signal));
        if (fired[0]) {
            LockLostException atRisk = atRiskException(hold, end - now);
            hold.observationAtRisk(atRisk);
            fire(signal, atRisk);
        }
    }

    /** Completes every listener, once, on the caller threads (inline once those are shut down). */
    private void fire(Signal signal, LockLostException loss) {
        if (!signal.fired.compareAndSet(null, loss)) {
            return;
        }
        for (CompletableFuture<LockLostException> listener : signal.listeners) {
            try {
                callers.execute(() -> listener.complete(loss));
            } catch (RejectedExecutionException closing) {
                listener.complete(loss);
            }
        }
    }

    private static void cancelAlarm(Signal signal) {
        ScheduledFuture<?> alarm = signal.alarm;
        if (alarm != null) {
            alarm.cancel(false);
        }
    }

    private static LockLostException goneException(Hold hold) {
        return new LockLostException(hold.lockName(), "The lease of lock '" + hold.lockName() + "' was lost: Redis "
                + "no longer has the hold (its lease expired, or the lock was deleted or force-released); another "
                + "holder may have it now");
    }

    private static LockLostException atRiskException(Hold hold, long leftNanos) {
        long leftMillis = TimeUnit.NANOSECONDS.toMillis(leftNanos);
        String when = leftMillis >= 0 ? "may end within " + leftMillis + " ms" : "may have ended " + -leftMillis
                + " ms ago";
        String why = hold.watchdog()
                ? "no renewal by the watchdog was confirmed in time (Redis did not answer)"
                : "its explicit lease of " + hold.leaseMillis() + " ms runs out";
        return new LockLostException(hold.lockName(), "The lease of lock '" + hold.lockName() + "' " + when + ": "
                + why + "; stop the work before another holder can get in");
    }
}

package io.distlock.core.engine;

import io.distlock.core.LockEvent;
import io.distlock.core.pubsub.WakeUpChannel;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One acquisition, from first attempt to outcome, as a chain of asynchronous steps so that the
 * blocking {@code Lock} methods and the {@code *Async} methods share it:
 * <ol>
 *   <li>try once (one round trip); acquired or out of wait time ⇒ done;</li>
 *   <li>otherwise join the lock's channel (shared subscription) and try again, so a release
 *       between the first try and the subscription is not missed;</li>
 *   <li>sleep until woken by a release message or until the holder's lease would end,
 *       whichever is first, then try again.</li>
 * </ol>
 * The outcome is the {@link Hold} (acquired), {@code null} (wait time elapsed or abandoned) or an
 * exception (Redis failed). A caller that stops waiting (interrupt) calls {@link #abandon()}: the
 * chain then leaves the channel at once, and if an attempt in flight still acquires the lock, it
 * is released again, so nothing is left behind.
 */
final class Acquisition {

    private static final int RUNNING = 0;
    private static final int DONE = 1;
    private static final int ABANDONED = 2;

    private final LockEngine engine;
    private final String name;
    private final LockKeys keys;
    private final LockProtocol protocol;
    private final String holderId;
    private final long leaseMillis;
    private final boolean watchdogued;
    private final long startNanos = System.nanoTime();
    private final long deadlineNanos;
    private final CompletableFuture<Hold> outcome = new CompletableFuture<>();
    private final AtomicInteger state = new AtomicInteger(RUNNING);

    // Touched only by the chain's steps, which run one after another.
    private WakeUpChannel channel;
    private boolean wokenByRelease;
    // Also read by abandon(), on the caller's thread.
    private volatile boolean waited;
    private volatile CompletableFuture<Boolean> sleep;

    private Acquisition(LockEngine engine, String name, LockKeys keys, LockProtocol protocol, String holderId,
                        long waitMillis, long leaseMillis) {
        this.engine = engine;
        this.name = name;
        this.keys = keys;
        this.protocol = protocol;
        this.holderId = holderId;
        this.watchdogued = leaseMillis <= 0;
        this.leaseMillis = watchdogued ? engine.watchdogLeaseMillis() : leaseMillis;
        this.deadlineNanos = waitMillis < 0 ? Long.MAX_VALUE : startNanos + waitMillis * 1_000_000L;
    }

    /**
     * Starts an acquisition.
     *
     * @param engine      the client's engine
     * @param name        lock name
     * @param keys        lock keys
     * @param protocol    kind of lock
     * @param holderId    who acquires
     * @param waitMillis  how long to wait; {@code 0} tries once, {@code < 0} waits without limit
     * @param leaseMillis lease; {@code <= 0} means watchdog
     * @return the running acquisition
     */
    static Acquisition start(LockEngine engine, String name, LockKeys keys, LockProtocol protocol, String holderId,
                             long waitMillis, long leaseMillis) {
        Acquisition acquisition = new Acquisition(engine, name, keys, protocol, holderId, waitMillis, leaseMillis);
        acquisition.attempt();
        return acquisition;
    }

    /** @return the hold when acquired, {@code null} when not, failed when Redis failed */
    CompletableFuture<Hold> outcome() {
        return outcome;
    }

    /**
     * The caller stopped waiting. Leaves the wait at once; a hold acquired by an attempt still in
     * flight is released when its answer comes.
     *
     * @return {@code true} if abandoned; {@code false} if the outcome was already decided (then
     *         the caller owns what {@link #outcome()} holds)
     */
    boolean abandon() {
        if (!state.compareAndSet(RUNNING, ABANDONED)) {
            return false;
        }
        engine.events().acquireFailed(name, protocol.type(), holderId, startNanos, waited,
                LockEvent.Failure.INTERRUPTED, null);
        outcome.complete(null);
        CompletableFuture<Boolean> sleeping = sleep;
        if (sleeping != null) {
            sleeping.complete(false);
        }
        return true;
    }

    private void attempt() {
        if (state.get() != RUNNING) {
            leaveChannel(true);
            return;
        }
        try {
            protocol.tryAcquire(keys, holderId, leaseMillis).whenComplete(this::onAttempt);
        } catch (RuntimeException e) {
            onAttempt(null, e);
        }
    }

    private void onAttempt(Attempt attempt, Throwable error) {
        try {
            if (error != null) {
                finish(LockEvent.Failure.ERROR, error);
            } else if (attempt.acquired()) {
                onAcquired(attempt);
            } else if (remainingMillis() <= 0) {
                finish(LockEvent.Failure.TIMEOUT, null);
            } else if (channel == null) {
                startWaiting();
            } else {
                sleepUntilWoken(attempt.ttlMillis());
            }
        } catch (RuntimeException e) {
            // e.g. the client was closed under us: fail, never stall the chain.
            finish(LockEvent.Failure.ERROR, e);
        }
    }

    private void startWaiting() {
        waited = true;
        engine.events().waiting(name, protocol.type(), holderId);
        channel = engine.subscriptions().join(keys.channel());
        channel.subscribed().whenComplete((ok, error) -> {
            if (error != null) {
                finish(LockEvent.Failure.ERROR, error);
            } else {
                attempt();
            }
        });
    }

    private void sleepUntilWoken(long holderTtlMillis) {
        // 0: the lease ends within the millisecond; -1: no lease at all (foreign key), so bound the
        // sleep by our own lease as a safety net instead of trusting a message to come.
        long bound = holderTtlMillis >= 0 ? holderTtlMillis : engine.watchdogLeaseMillis();
        CompletableFuture<Boolean> wake = channel.awaitWakeUp(Math.min(bound, remainingMillis()), engine.scheduler());
        sleep = wake;
        if (state.get() != RUNNING) {
            wake.complete(false);
        }
        wake.whenComplete((woken, error) -> {
            wokenByRelease = Boolean.TRUE.equals(woken);
            attempt();
        });
    }

    private void onAcquired(Attempt attempt) {
        leaveChannel(false);
        if (!state.compareAndSet(RUNNING, DONE)) {
            // Abandoned while this attempt was in flight: give back what it took.
            protocol.release(keys, holderId, attempt.holdCount());
            return;
        }
        Hold hold = engine.acquired(name, keys, holderId, protocol, watchdogued, attempt.holdCount());
        engine.events().acquired(hold, startNanos, waited);
        outcome.complete(hold);
    }

    private void finish(LockEvent.Failure failure, Throwable error) {
        leaveChannel(true);
        if (!state.compareAndSet(RUNNING, DONE)) {
            return;
        }
        engine.events().acquireFailed(name, protocol.type(), holderId, startNanos, waited, failure, error);
        if (error != null) {
            outcome.completeExceptionally(RedisFailures.translate("acquire lock '" + name + "'", error));
        } else {
            outcome.complete(null);
        }
    }

    /**
     * @param passOnWakeUp leaving without the lock: a release message this acquisition was woken
     *                     by goes to the next local waiter instead of being lost
     */
    private void leaveChannel(boolean passOnWakeUp) {
        if (channel == null) {
            return;
        }
        if (passOnWakeUp && wokenByRelease) {
            channel.wakeOne();
        }
        engine.subscriptions().leave(channel);
        channel = null;
    }

    private long remainingMillis() {
        if (deadlineNanos == Long.MAX_VALUE) {
            return Long.MAX_VALUE;
        }
        return (deadlineNanos - System.nanoTime()) / 1_000_000L;
    }
}

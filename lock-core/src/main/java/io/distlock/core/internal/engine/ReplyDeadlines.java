package io.distlock.core.internal.engine;

import io.netty.util.HashedWheelTimer;
import io.netty.util.Timeout;
import io.netty.util.TimerTask;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Fails a Redis call whose answer has not come within a limit, on a hashed-wheel timer of the
 * client's own (Netty's, as Lettuce uses for its command timeouts) that ticks every 100 ms:
 * bounding a call costs two queue insertions and wakes no thread. {@code
 * CompletableFuture.orTimeout}, its alternative, schedules on the JDK's one delay thread and wakes
 * it for every call whose deadline is the earliest, which on the release path of a busy lock is
 * every call: a context switch per release, a third of the hand-offs of a contended lock on a
 * 2-core machine.
 *
 * <p>The timer is the client's, not Lettuce's shared one: the application may shut its Lettuce
 * resources down while a release still waits, and a stopped timer drops its deadlines, which
 * would leave {@code unlock()} waiting for ever. What runs when a deadline passes (the release's
 * failure handling) runs on this timer's thread. {@link #close()} fails the calls still waiting.
 *
 * <p>A deadline may pass up to a tick late; the limits bounded here are a command timeout plus a
 * margin, seconds long.
 */
final class ReplyDeadlines implements AutoCloseable {

    private static final long TICK_MILLIS = 100;

    private final HashedWheelTimer timer;

    /** @param threadName the name of the timer's (daemon) thread */
    ReplyDeadlines(String threadName) {
        this.timer = new HashedWheelTimer(runnable -> {
            Thread thread = new Thread(runnable, threadName);
            thread.setDaemon(true);
            return thread;
        }, TICK_MILLIS, TimeUnit.MILLISECONDS);
        // Started now: a timer starts at its first deadline otherwise, and waits for its thread
        // then, swallowing an interrupt of the caller (an unlock() called with the interrupt
        // status set would lose it). Cleared here and set again for the same reason.
        boolean interrupted = Thread.interrupted();
        try {
            timer.start();
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Fails {@code call} with a {@link TimeoutException} unless it completes within
     * {@code limitMillis}; once the client is closed, fails it at once.
     *
     * @param call        a Redis call in flight; completed exceptionally when its time is up
     * @param limitMillis how long its answer may take, in milliseconds
     * @param <T>         its result type
     * @return {@code call}
     */
    <T> CompletableFuture<T> within(CompletableFuture<T> call, long limitMillis) {
        if (call.isDone()) {
            return call;
        }
        Deadline deadline = new Deadline(call, limitMillis);
        Timeout scheduled;
        try {
            scheduled = timer.newTimeout(deadline, limitMillis, TimeUnit.MILLISECONDS);
        } catch (RuntimeException stopped) {
            // Closed (IllegalStateException); never left unbounded, whatever the reason.
            deadline.clientClosed();
            return call;
        }
        call.whenComplete((result, error) -> scheduled.cancel());
        return call;
    }

    /** @return deadlines not yet passed nor cancelled (those cancelled leave at the next tick) */
    int pending() {
        return (int) timer.pendingTimeouts();
    }

    /** Stops the timer and fails every call still waiting for its answer: the client is closed. */
    @Override
    public void close() {
        for (Timeout left : timer.stop()) {
            ((Deadline) left.task()).clientClosed();
        }
    }

    /** A call and its limit: fails the call when the limit passed, or when the client closed. */
    private record Deadline(CompletableFuture<?> call, long limitMillis) implements TimerTask {

        @Override
        public void run(Timeout timeout) {
            call.completeExceptionally(new TimeoutException("No answer from Redis within " + limitMillis + " ms"));
        }

        void clientClosed() {
            call.completeExceptionally(new IllegalStateException(
                    "The lock client was closed before Redis answered"));
        }
    }
}

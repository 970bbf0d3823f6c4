package io.distlock.core.engine;

import io.netty.util.Timeout;
import io.netty.util.Timer;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Fails a Redis call whose answer has not come within a limit, on the Lettuce client's timer: a
 * hashed wheel that ticks every 100 ms, which Lettuce itself uses for its delays. Bounding a call
 * then costs two queue insertions and wakes no thread. {@code CompletableFuture.orTimeout}, its
 * alternative, schedules on the JDK's one delay thread and wakes it for every call whose deadline
 * is the earliest, which on the release path of a busy lock is every call: a context switch per
 * release, a third of the hand-offs of a contended lock on a 2-core machine.
 *
 * <p>A deadline may pass up to a tick late; the limits bounded here are a command timeout plus a
 * margin, seconds long.
 */
final class ReplyDeadlines {

    private final Timer timer;

    /** @param timer the Lettuce client's timer ({@code ClientResources.timer()}) */
    ReplyDeadlines(Timer timer) {
        this.timer = timer;
    }

    /**
     * Fails {@code call} with a {@link TimeoutException} unless it completes within
     * {@code limitMillis}.
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
        Timeout deadline;
        try {
            deadline = timer.newTimeout(timeout -> call.completeExceptionally(new TimeoutException(
                    "No answer from Redis within " + limitMillis + " ms")), limitMillis, TimeUnit.MILLISECONDS);
        } catch (IllegalStateException e) {
            // The timer was stopped: the Redis client is shut down, and no answer will come.
            call.completeExceptionally(e);
            return call;
        }
        call.whenComplete((result, error) -> deadline.cancel());
        return call;
    }
}

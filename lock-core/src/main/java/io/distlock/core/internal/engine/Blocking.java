package io.distlock.core.internal.engine;

import io.distlock.core.LockException;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Waits for the engine's futures on behalf of the blocking {@code Lock} methods, turning failures
 * into the exceptions those methods promise. Every wait has a limit, so a lost answer can never
 * hang a thread, unless the caller asked to wait forever for a lock, or the future bounds itself
 * because the engine must be the one to decide that an answer did not come (a release: see
 * {@link RedisCalls#inTime}).
 */
final class Blocking {

    private Blocking() {
    }

    /**
     * Waits, letting an interrupt end the wait.
     *
     * @param future        what to wait for
     * @param limit         longest wait
     * @param action        what is being done, for messages (e.g. "acquire lock 'x'")
     * @param <T>           result type
     * @return the result
     * @throws InterruptedException if interrupted while waiting
     */
    static <T> T await(CompletableFuture<T> future, Wait limit, String action) throws InterruptedException {
        try {
            return limit.isForever() ? future.get() : future.get(limit.millis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw RedisFailures.translate(action, e);
        } catch (TimeoutException e) {
            throw new LockException("Could not " + action + ": no answer from Redis within " + limit
                    + ". Check that Redis is running and reachable.");
        }
    }

    /**
     * Waits, ignoring interrupts until the future is done; the thread's interrupt status is kept.
     *
     * @param future      what to wait for
     * @param limit       longest wait
     * @param action      what is being done, for messages
     * @param <T>         result type
     * @return the result
     */
    static <T> T awaitUninterruptibly(CompletableFuture<T> future, Wait limit, String action) {
        long startNanos = System.nanoTime();
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return await(future, limit.left(startNanos, System.nanoTime()), action);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}

package io.distlock.core;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Attempts that tests make on a thread of their own, as another holder of the same client. */
final class LockAttempts {

    /** How much longer than its wait an attempt may take before the test gives up on it. */
    private static final long SLACK_MILLIS = 10_000;

    private LockAttempts() {
    }

    /**
     * Tries the lock on another thread and, if it was acquired, releases it at once.
     *
     * @return whether it was acquired within the wait
     */
    static boolean tryAndReleaseElsewhere(RedisLock lock, long waitMillis) throws Exception {
        return startTryAndRelease(lock, waitMillis).get(waitMillis + SLACK_MILLIS, TimeUnit.MILLISECONDS);
    }

    /**
     * Starts {@link #tryAndReleaseElsewhere} without waiting for it.
     *
     * @return whether it was acquired within the wait; {@code false} if interrupted
     */
    static CompletableFuture<Boolean> startTryAndRelease(RedisLock lock, long waitMillis) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                boolean acquired = lock.tryLock(waitMillis, TimeUnit.MILLISECONDS);
                if (acquired) {
                    lock.unlock();
                }
                return acquired;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        });
    }
}

package io.distlock.core;

import io.distlock.core.engine.RedisFailures;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * What the locks made of other locks ({@link MultiLock}, {@link RedLock}) share: releasing a
 * component with one retry when Redis did not confirm it (safe: a release never happens twice),
 * and wait deadlines that cannot overflow.
 */
final class CompositeLocks {

    private CompositeLocks() {
    }

    /**
     * @param lock     a component
     * @param holderId its holder
     * @return completes when the component confirmed the release; a {@link LockException} (no
     *         answer) is retried once
     */
    static CompletableFuture<Void> unlockRetryingOnce(RedisLock lock, String holderId) {
        return unlockOnce(lock, holderId).exceptionallyCompose(error -> unwrap(error) instanceof LockException
                ? unlockOnce(lock, holderId) : CompletableFuture.failedFuture(error));
    }

    /**
     * Releases a component held by the calling thread; a {@link LockException} is retried once.
     *
     * @param lock a component
     * @throws LockException if Redis confirmed neither attempt (the hold ends with its lease)
     */
    static void unlockRetryingOnce(RedisLock lock) {
        try {
            lock.unlock();
        } catch (LockException unconfirmed) {
            try {
                lock.unlock();
            } catch (LockException again) {
                again.addSuppressed(unconfirmed);
                throw new LockException("Redis did not confirm the release of " + lock.getName() + " of a composite "
                        + "lock; it ends with its lease (do not call unlock() on the composite lock again)", again);
            }
        }
    }

    /**
     * @param waitMillis how long to wait; {@code Long.MAX_VALUE} or more than the clock allows:
     *                   without limit
     * @return the {@link System#nanoTime()} deadline, {@code Long.MAX_VALUE} for none
     */
    static long deadline(long waitMillis) {
        long now = System.nanoTime();
        long waitNanos = TimeUnit.MILLISECONDS.toNanos(Math.max(0, waitMillis));
        return waitNanos >= Long.MAX_VALUE - now ? Long.MAX_VALUE : now + waitNanos;
    }

    /**
     * @param deadline from {@link #deadline(long)}
     * @return milliseconds left, at least 0; {@code Long.MAX_VALUE} without limit
     */
    static long remainingMillis(long deadline) {
        return deadline == Long.MAX_VALUE ? Long.MAX_VALUE
                : Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
    }

    static Throwable unwrap(Throwable error) {
        return RedisFailures.unwrap(error);
    }

    private static CompletableFuture<Void> unlockOnce(RedisLock lock, String holderId) {
        try {
            return lock.unlockAsync(holderId);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e); // e.g. its client was closed
        }
    }
}

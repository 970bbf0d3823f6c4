package io.distlock.core;

import java.util.concurrent.TimeUnit;

/** Attempts that tests make on a thread of their own, as another holder of the same client. */
final class LockAttempts {

    private LockAttempts() {
    }

    /**
     * Tries the lock and, if it was acquired, releases it at once.
     *
     * @return whether it was acquired within the wait; {@code false} if interrupted (the flag stays set)
     */
    static boolean tryAndRelease(RedisLock lock, long waitMillis) {
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
    }
}

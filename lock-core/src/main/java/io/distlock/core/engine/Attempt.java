package io.distlock.core.engine;

/**
 * Outcome of one acquisition round trip.
 *
 * @param acquired  whether the holder has the lock now
 * @param holdCount the holder's hold count when acquired
 * @param ttlMillis when not acquired, the current holder's remaining lease ({@code -1} unknown):
 *                  the longest a waiter sleeps before trying again
 */
public record Attempt(boolean acquired, int holdCount, long ttlMillis) {

    /**
     * @param holdCount the holder's count after acquiring
     * @return an acquired attempt
     */
    public static Attempt acquired(int holdCount) {
        return new Attempt(true, holdCount, 0);
    }

    /**
     * @param ttlMillis the holder's remaining lease
     * @return an attempt that found the lock held
     */
    public static Attempt busy(long ttlMillis) {
        return new Attempt(false, 0, ttlMillis);
    }
}

package io.distlock.core.engine;

/**
 * Outcome of one acquisition round trip.
 *
 * @param acquired  whether the holder has the lock now
 * @param holdCount the holder's hold count when acquired
 * @param ttlMillis when not acquired, the current holder's remaining lease ({@code -1} unknown):
 *                  the longest a waiter sleeps before trying again
 * @param token     when acquired by a lock that issues fencing tokens, the hold's token; else 0
 */
public record Attempt(boolean acquired, int holdCount, long ttlMillis, long token) {

    /**
     * @param holdCount the holder's count after acquiring
     * @return an acquired attempt
     */
    public static Attempt acquired(int holdCount) {
        return new Attempt(true, holdCount, 0, 0);
    }

    /**
     * @param holdCount the holder's count after acquiring
     * @param token     the hold's fencing token
     * @return an acquired attempt of a fenced lock
     */
    public static Attempt acquired(int holdCount, long token) {
        return new Attempt(true, holdCount, 0, token);
    }

    /**
     * @param ttlMillis the holder's remaining lease
     * @return an attempt that found the lock held
     */
    public static Attempt busy(long ttlMillis) {
        return new Attempt(false, 0, ttlMillis, 0);
    }
}

package io.distlock.core.internal.engine;

import java.util.List;

/**
 * Outcome of one acquisition round trip.
 *
 * @param acquired  whether the holder has the lock now
 * @param holdCount the holder's hold count when acquired
 * @param ttlMillis when not acquired, the current holder's remaining lease ({@code -1} unknown):
 *                  the longest a waiter sleeps before trying again
 * @param token     when acquired by a lock that issues fencing tokens, the hold's token; else 0
 * @param lost      a re-entry found that the holder holds nothing any more: its lease was lost
 */
public record Attempt(boolean acquired, int holdCount, long ttlMillis, long token, boolean lost) {

    /** Reply code of the lock scripts for a re-entry whose hold is gone. */
    private static final long LOST = -2;

    /**
     * @param holdCount the holder's count after acquiring
     * @return an acquired attempt
     */
    public static Attempt acquired(int holdCount) {
        return acquired(holdCount, 0);
    }

    /**
     * @param holdCount the holder's count after acquiring
     * @param token     the hold's fencing token
     * @return an acquired attempt of a fenced lock
     */
    public static Attempt acquired(int holdCount, long token) {
        return new Attempt(true, holdCount, 0, token, false);
    }

    /**
     * @param ttlMillis the holder's remaining lease
     * @return an attempt that found the lock held
     */
    public static Attempt busy(long ttlMillis) {
        return new Attempt(false, 0, ttlMillis, 0, false);
    }

    /** @return a re-entry that found the holder's hold gone */
    public static Attempt reentryLost() {
        return new Attempt(false, 0, 0, 0, true);
    }

    /**
     * Reads the reply the lock scripts share: {@code {1, holdCount[, token]}} acquired,
     * {@code {0, ttlMillis}} busy, {@code {-2}} the re-entered hold is gone.
     *
     * @param reply the script's reply
     * @return the attempt
     */
    static Attempt of(List<Long> reply) {
        long code = reply.get(0);
        if (code == 1L) {
            return acquired(reply.get(1).intValue(), reply.size() > 2 ? reply.get(2) : 0);
        }
        return code == LOST ? reentryLost() : busy(reply.get(1));
    }
}

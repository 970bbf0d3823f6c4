package io.distlock.core.internal.engine;

import java.util.concurrent.TimeUnit;

/**
 * How long a caller waits: for a lock, or for an answer it bounds itself. A number of milliseconds
 * ({@code 0}: not at all), or {@linkplain #forever() without limit}; never a number standing for
 * "forever".
 */
final class Wait {

    private static final Wait FOREVER = new Wait(Long.MAX_VALUE);

    private final long millis;

    private Wait(long millis) {
        this.millis = millis;
    }

    /** @return a wait without limit */
    static Wait forever() {
        return FOREVER;
    }

    /** @return no wait at all: one try */
    static Wait none() {
        return millis(0);
    }

    /**
     * @param millis how long, in milliseconds; negative counts as {@code 0}
     * @return a wait of that long at most
     */
    static Wait millis(long millis) {
        return new Wait(Math.max(0, millis));
    }

    /**
     * @param time how long; negative counts as {@code 0}
     * @param unit its unit
     * @return a wait of that long at most
     */
    static Wait of(long time, TimeUnit unit) {
        return millis(unit.toMillis(time));
    }

    /** @return whether this wait has no limit */
    boolean isForever() {
        return this == FOREVER;
    }

    /** @return whether this is no wait at all: one try */
    boolean isNone() {
        return millis == 0;
    }

    /**
     * @return the limit, in milliseconds
     * @throws IllegalStateException if this wait has no limit
     */
    long millis() {
        if (isForever()) {
            throw new IllegalStateException("A wait without limit has no length");
        }
        return millis;
    }

    /**
     * @param extraMillis a margin, not negative
     * @return this wait and the margin; without limit if this one has none or the sum overflows
     */
    Wait plus(long extraMillis) {
        return isForever() || millis > Long.MAX_VALUE / 2 - extraMillis ? FOREVER : new Wait(millis + extraMillis);
    }

    /**
     * @param startNanos when the wait started ({@link System#nanoTime()}, which may be negative)
     * @return when it ends ({@link System#nanoTime()}), {@code Long.MAX_VALUE} if it never does
     *         (or not before that)
     */
    long deadlineNanos(long startNanos) {
        long nanos = TimeUnit.MILLISECONDS.toNanos(millis);
        return isForever() || (startNanos > 0 && nanos > Long.MAX_VALUE - startNanos) ? Long.MAX_VALUE
                : startNanos + nanos;
    }

    /**
     * @param startNanos when the wait started ({@link System#nanoTime()})
     * @param nowNanos   {@link System#nanoTime()} now
     * @return what is left of this wait: none once it is over, without limit if it has none
     */
    Wait left(long startNanos, long nowNanos) {
        return isForever() ? this : millis(millis - TimeUnit.NANOSECONDS.toMillis(nowNanos - startNanos));
    }

    @Override
    public String toString() {
        return isForever() ? "forever" : millis + " ms";
    }
}

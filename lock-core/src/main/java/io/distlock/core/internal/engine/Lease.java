package io.distlock.core.internal.engine;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * How a hold's lease is kept: an explicit lease the holder chose, after which Redis ends the hold
 * unless it was released, or the watchdog's, renewed while the client holds the lock. The public
 * API says "no lease time, or one {@code <= 0}" for the watchdog; inside the engine that is
 * {@link #watchdog()}, never a number standing for it.
 */
public final class Lease {

    /** Longest explicit lease: Redis rejects expiry times that overflow its clock arithmetic. */
    static final long MAX_MILLIS = TimeUnit.DAYS.toMillis(365);

    private static final Lease WATCHDOG = new Lease(0);

    private final long millis;

    private Lease(long millis) {
        this.millis = millis;
    }

    /** @return the watchdog's lease: renewed while the client holds the lock */
    public static Lease watchdog() {
        return WATCHDOG;
    }

    /**
     * The lease the public API's {@code leaseTime} asks for.
     *
     * @param leaseTime the lease; {@code <= 0} for the watchdog's
     * @param unit      its unit
     * @return the lease: at least a millisecond if {@code leaseTime} is positive, however short
     * @throws NullPointerException     if {@code unit} is {@code null}
     * @throws IllegalArgumentException if the lease is longer than 365 days
     */
    public static Lease of(long leaseTime, TimeUnit unit) {
        Objects.requireNonNull(unit, "unit must not be null");
        if (leaseTime <= 0) {
            return WATCHDOG;
        }
        long leaseMillis = unit.toMillis(leaseTime);
        if (leaseMillis > MAX_MILLIS) {
            throw new IllegalArgumentException("leaseTime must be at most 365 days, but was "
                    + Duration.of(leaseTime, unit.toChronoUnit()) + "; use no lease time (watchdog) for holds of "
                    + "unknown length");
        }
        return new Lease(Math.max(1, leaseMillis));
    }

    /** @return whether the watchdog keeps the lease */
    public boolean isWatchdog() {
        return this == WATCHDOG;
    }

    /**
     * @return the explicit lease, in milliseconds
     * @throws IllegalStateException if this is the watchdog's
     */
    public long millis() {
        if (isWatchdog()) {
            throw new IllegalStateException("The watchdog's lease has no length of its own");
        }
        return millis;
    }

    /**
     * @return this lease as the public API's {@code leaseTime} in milliseconds: {@code 0} for the
     *         watchdog's
     */
    public long asLeaseTime() {
        return millis;
    }

    @Override
    public String toString() {
        return isWatchdog() ? "watchdog" : millis + "ms";
    }
}

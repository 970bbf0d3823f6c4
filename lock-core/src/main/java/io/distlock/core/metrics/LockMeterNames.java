package io.distlock.core.metrics;

/**
 * The names of distlock's Micrometer meters and of their tags, in one place: {@link LockMetrics}
 * makes the meters, and the observations of {@link io.distlock.core.observation} are named so that
 * Micrometer's meter handler makes the same timers from them. Plain strings: reading them needs no
 * Micrometer class.
 */
public final class LockMeterNames {

    /** Prefix of every meter name, e.g. for a {@code MeterFilter}. */
    public static final String PREFIX = "distlock.";
    /** Timer of acquisitions; tags {@link #NAME}, {@link #TYPE}, {@link #RESULT}, {@link #ERROR}. */
    public static final String ACQUIRE = "distlock.acquire";
    /** Timer of how long locks were held, from first hold to last release; tags {@link #NAME}, {@link #TYPE}, {@link #ERROR}. */
    public static final String HELD = "distlock.held";
    /** Gauge of the locks this client holds now; tags {@link #NAME}, {@link #TYPE}. */
    public static final String ACTIVE = "distlock.active";
    /** Gauge of the callers of this client waiting for a lock now; tags {@link #NAME}, {@link #TYPE}. */
    public static final String WAITING = "distlock.waiting";
    /** Counter of watchdog lease renewals; tags {@link #NAME}, {@link #TYPE}, {@link #RESULT} = renewed | lost | error. */
    public static final String WATCHDOG_RENEWALS = "distlock.watchdog.renewals";
    /** Gauge of the holds whose lease the watchdog keeps renewing; untagged. */
    public static final String WATCHDOG_LOCKS = "distlock.watchdog.locks";
    /** Counter of leases lost while held; tags {@link #NAME}, {@link #TYPE}. */
    public static final String LOST = "distlock.lost";
    /**
     * Counter of locked calls stopped because their lease was lost (the starter's
     * {@code @DistributedLock(onLost = CANCEL)}); tags {@link #NAME}, {@link #TYPE}.
     */
    public static final String CANCELLED = "distlock.cancelled";

    /** Tag: the lock's group, its static name ({@code @DistributedLock}'s name), never a key. */
    public static final String NAME = "name";
    /** Tag: the kind of lock, e.g. {@code reentrant}, {@code fair}, {@code red_lock}. */
    public static final String TYPE = "type";
    /**
     * Tag: how an acquisition or a renewal ended. Acquisitions: {@code acquired}; {@code timeout}, a
     * wait that ran out; {@code busy}, the lock was taken and the caller asked not to wait;
     * {@code interrupted}; {@code error}. Renewals: {@code renewed}, {@code lost}, {@code error}.
     */
    public static final String RESULT = "result";
    /** Tag of the timers: {@code none}, or the simple class name of the failure. */
    public static final String ERROR = "error";

    private LockMeterNames() {
    }
}

package io.distlock.core.engine;

/**
 * What this client knows about one holder's hold of one lock: the hold count it was given, how
 * the lease is kept, and whether the lease was found lost. Redis stays the authority; this state
 * lets the watchdog know what to renew, makes {@code unlock()} retry-safe, and turns a lost lease
 * into {@link io.distlock.core.LockLostException}.
 */
public final class Hold {

    private final LockId id;
    private final LockKeys keys;
    private final String holderId;
    private final LockProtocol protocol;
    private volatile boolean watchdog;
    private final long leaseMillis;
    private final long acquiredNanos;
    private final int handOffs;
    private final long token;
    private volatile int count;
    private volatile boolean lost;
    private volatile boolean releaseUnconfirmed;
    private volatile long unconfirmedSinceNanos;

    Hold(LockId id, LockKeys keys, String holderId, LockProtocol protocol, boolean watchdog, long leaseMillis,
         int count, long token, int handOffs) {
        this.id = id;
        this.keys = keys;
        this.holderId = holderId;
        this.protocol = protocol;
        this.watchdog = watchdog;
        this.leaseMillis = leaseMillis;
        this.count = count;
        this.handOffs = handOffs;
        this.token = token;
        this.acquiredNanos = System.nanoTime();
    }

    /** @return the lock's name */
    public String lockName() {
        return id.name();
    }

    /** @return the lock's name and group */
    public LockId id() {
        return id;
    }

    /** @return the lock's Redis keys */
    public LockKeys keys() {
        return keys;
    }

    /** @return the holder */
    public String holderId() {
        return holderId;
    }

    /** @return the kind of lock, which also renews it */
    public LockProtocol protocol() {
        return protocol;
    }

    /** @return whether the watchdog keeps the lease alive */
    public boolean watchdog() {
        return watchdog;
    }

    /** A re-entry without lease time: the watchdog keeps the lease alive from now on. */
    void watchdogFromNowOn() {
        this.watchdog = true;
    }

    /**
     * @return how long the lease lasts at most from now, as far as this client knows: a full lease
     *         for watchdog holds, else the lease less the time since the first hold
     */
    public long remainingLeaseMillis() {
        return watchdog ? leaseMillis
                : Math.max(0, leaseMillis - (System.nanoTime() - acquiredNanos) / 1_000_000L);
    }

    /**
     * @return for an explicit lease, how long ago it ended in milliseconds (negative while it
     *         lasts); for watchdog holds, which do not end, a negative number
     */
    long millisSinceLeaseEnded() {
        return watchdog ? -1 : (System.nanoTime() - acquiredNanos) / 1_000_000L - leaseMillis;
    }

    /** @return {@link System#nanoTime()} when the first hold was taken */
    public long acquiredNanos() {
        return acquiredNanos;
    }

    /** @return how many hand-offs in a row, between holders of this client, led to this hold (0: none) */
    public int handOffs() {
        return handOffs;
    }

    /** @return the fencing token of this hold (the same for its re-entries); 0 for locks without tokens */
    public long token() {
        return token;
    }

    /** @return the hold count as last confirmed by Redis */
    public int count() {
        return count;
    }

    void count(int count) {
        this.count = count;
    }

    /** @return whether the lease was found lost */
    public boolean lost() {
        return lost;
    }

    void markLost() {
        this.lost = true;
    }

    /** @return whether the last release failed without an answer, so it may or may not have happened */
    boolean releaseUnconfirmed() {
        return releaseUnconfirmed;
    }

    void releaseUnconfirmed(boolean unconfirmed) {
        if (unconfirmed && !releaseUnconfirmed) {
            unconfirmedSinceNanos = System.nanoTime();
        }
        this.releaseUnconfirmed = unconfirmed;
    }

    /**
     * @return for a last hold whose release Redis never confirmed, how long ago it was sent, in
     *         milliseconds; otherwise a negative number
     */
    long millisSinceUnconfirmedLastRelease() {
        return releaseUnconfirmed && count == 1 ? (System.nanoTime() - unconfirmedSinceNanos) / 1_000_000L : -1;
    }
}

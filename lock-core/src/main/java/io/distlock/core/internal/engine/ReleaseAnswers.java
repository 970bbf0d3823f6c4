package io.distlock.core.internal.engine;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Where releases keep their answers in Redis, and which of them this client no longer needs.
 * Every release writes its answer into its lock's answer book, so that the same release run
 * again answers as its first run did ({@code release_answer.lua}). An answer is needed only
 * until this client has read one: Lettuce sends a command again only while no answer came, and
 * the engine sends a release again only while it has none. So the answers read are acknowledged
 * to Redis with the next release of the same lock, which deletes them from the book: a lock
 * released over and over keeps one or two answers instead of one per release, and no release
 * pays for a key of its own.
 *
 * <p>Acknowledging is only tidiness, never needed for correctness: an answer not acknowledged
 * (the lock is not released again soon, the client stops, the release that carried it failed)
 * stays until its book expires or Redis drops it by age, never sooner than
 * {@link #keptMillis()} after it was written.
 */
public final class ReleaseAnswers {

    /** At most this many characters of acknowledged hold ids go with one release (a few dozen ids). */
    private static final int MAX_ACKNOWLEDGED_CHARS = 1_000;
    /**
     * Locks whose acknowledgements are kept at most: an application that releases many locks once
     * each (one per order, say) would otherwise keep one entry per lock until {@link #forgetUnsent}.
     */
    private static final int MAX_LOCKS = 10_000;

    private final long keptMillis;
    /**
     * Lock key (one per answer book, and a string the lock keeps, so its hash is computed once) to
     * the hold ids read since the lock's last release, separated by spaces.
     */
    private final ConcurrentMap<String, String> read = new ConcurrentHashMap<>();

    /** @param keptMillis how long an answer book lives after its last write ({@link #keptMillis()}) */
    public ReleaseAnswers(long keptMillis) {
        this.keptMillis = keptMillis;
    }

    /**
     * @return how long an answer book lives after its last write, so the least time an answer is
     *         kept: a release of it sent again within this time answers as its first run did
     */
    public long keptMillis() {
        return keptMillis;
    }

    /**
     * The engine read the answer of the release of that hold, and decided on it: no run of that
     * release will be read again, so Redis may forget its answer.
     *
     * @param keys   the lock's keys
     * @param holdId the released hold
     */
    public void read(LockKeys keys, String holdId) {
        if (read.size() >= MAX_LOCKS) {
            return;  // left to age out in Redis
        }
        read.merge(keys.lockKey(), holdId,
                (ids, more) -> ids.length() > MAX_ACKNOWLEDGED_CHARS ? ids : ids + " " + more);
    }

    /**
     * @param keys the lock's keys
     * @return the hold ids to acknowledge with a release of that lock now, separated by spaces
     *         (empty when none), taken out: each goes with one release
     */
    public String takeRead(LockKeys keys) {
        if (read.isEmpty()) {
            return "";
        }
        String ids = read.remove(keys.lockKey());
        return ids == null ? "" : ids;
    }

    /**
     * Drops the acknowledgements of locks not released again since: their answers expire with
     * their books or by age in Redis. Called now and then, so that locks released once leave
     * nothing here.
     */
    void forgetUnsent() {
        read.clear();
    }
}

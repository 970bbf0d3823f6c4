package io.distlock.core.internal.engine;

import java.util.concurrent.CompletableFuture;

/**
 * A lock that a composite lock ({@link io.distlock.core.MultiLock}) can acquire with the watchdog
 * and, once it holds all its locks, give an explicit lease from then on: no component runs out of
 * lease while the composite waits for the others, and each has its full lease from the moment all
 * are held. A composite acquired with the watchdog asks the same, with no lease, to confirm that
 * the components it took first are still held: their renewals may have failed while it waited (a
 * frozen JVM, a lost connection). Implemented by {@link ScriptedLock}; the composite locks give
 * a view of theirs (so that their public types show no engine type), so they nest.
 */
public interface SettableLease {

    /**
     * Gives the holder's latest hold, acquired with the watchdog, an explicit lease from now: no
     * longer renewed, it ends after {@code lease} unless released before. Holds the holder
     * had before {@code acquiringSinceNanos} keep their lease, which is never shortened.
     *
     * @param holderId            the holder
     * @param lease               the lease; or {@link Lease#watchdog()}: the hold stays a watchdog hold
     *                            and is only confirmed still there (and renewed from now), without
     *                            asking Redis if so little time passed since {@code acquiringSinceNanos}
     *                            that its lease cannot have run out
     * @param acquiringSinceNanos {@link System#nanoTime()} when the composite started acquiring
     * @return completes once Redis set the lease (or confirmed the hold); fails with
     *         {@link io.distlock.core.LockLostException} if that hold is gone (reported as lost),
     *         {@link IllegalMonitorStateException} if the holder holds nothing,
     *         {@link io.distlock.core.LockException} if Redis did not confirm
     */
    CompletableFuture<Void> leaseFromNow(String holderId, Lease lease, long acquiringSinceNanos);

    /**
     * {@link #leaseFromNow(String, Lease, long)} for the calling thread's hold; call it on that thread.
     *
     * @param lease               as {@link #leaseFromNow(String, Lease, long)}
     * @param acquiringSinceNanos {@link System#nanoTime()} when the composite started acquiring
     * @return as {@link #leaseFromNow(String, Lease, long)}
     */
    CompletableFuture<Void> leaseFromNow(Lease lease, long acquiringSinceNanos);
}

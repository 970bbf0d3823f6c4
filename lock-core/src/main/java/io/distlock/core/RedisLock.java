package io.distlock.core;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;

/**
 * A lock held in Redis, usable from any number of JVMs. It follows the
 * {@link java.util.concurrent.locks.Lock} contract: the holder is the calling thread (of this
 * {@link LockClient}), holds are reentrant and counted, and {@link #unlock()} by a thread that does
 * not hold the lock throws {@link IllegalMonitorStateException}.
 *
 * <p><b>Leases.</b> Every hold has a lease, so a crashed holder cannot keep the lock forever.
 * Methods without a lease time (or with {@code leaseTime <= 0}) let the client's watchdog renew
 * the lease until {@code unlock()}; an explicit lease time turns the watchdog off and the lock
 * expires after it. An explicit lease is at least a millisecond (a shorter positive one is rounded
 * up) and at most 365 days. If a lease is lost while the caller believes it holds the lock,
 * {@code unlock()} throws {@link LockLostException} and listeners are told.
 *
 * <p><b>Async use.</b> The {@code *Async} methods take an explicit holder id instead of the
 * calling thread, so a hold can be acquired on one thread and released on another. Like a thread,
 * one holder id does one thing at a time: start its next call after the previous future
 * completed. Ending a {@code tryLockAsync} future yourself (cancel, {@code orTimeout}, ...)
 * abandons the attempt, and a hold it still gets is given back. The futures complete on Redis
 * client I/O threads: do not block in callbacks attached to them.
 *
 * <p>Instances are cheap and thread-safe; {@link LockClient#getLock(String)} may be called for
 * every use or cached.
 */
public interface RedisLock extends Lock {

    /**
     * @return the lock's name as given to {@link LockClient} (without key prefix)
     */
    String getName();

    /**
     * Acquires the lock, waiting as long as it takes, with an explicit lease (no watchdog).
     * Interrupts do not stop the wait; the interrupt status is kept.
     *
     * @param leaseTime how long the hold lasts unless released before; {@code <= 0} means the
     *                  watchdog keeps it alive until {@link #unlock()}
     * @param unit      unit of {@code leaseTime}
     * @throws LockException            if Redis cannot be reached or does not answer in time
     * @throws IllegalArgumentException if the lease is longer than 365 days
     */
    void lock(long leaseTime, TimeUnit unit);

    /**
     * Tries to acquire the lock within {@code waitTime}.
     *
     * @param waitTime  how long to wait for the lock; {@code 0} tries once
     * @param leaseTime how long the hold lasts; {@code <= 0} means watchdog renewal until unlock
     * @param unit      unit of both times
     * @return {@code true} if acquired, {@code false} if the wait time elapsed
     * @throws InterruptedException     if the thread was interrupted while waiting; nothing is held
     * @throws LockException            if Redis cannot be reached or does not answer in time
     * @throws IllegalArgumentException if the lease is longer than 365 days
     */
    boolean tryLock(long waitTime, long leaseTime, TimeUnit unit) throws InterruptedException;

    /**
     * @return {@code true} if any holder holds the lock now
     */
    boolean isLocked();

    /**
     * @return {@code true} if the calling thread holds the lock now (asks Redis, so a lost lease
     *         shows as {@code false})
     */
    boolean isHeldByCurrentThread();

    /**
     * @param holderId a holder, e.g. from {@link LockClient#currentHolderId()} or one given to
     *                 {@link #tryLockAsync(long, long, TimeUnit, String)}
     * @return {@code true} if that holder holds the lock now (asks Redis, so a lost lease shows as
     *         {@code false})
     */
    boolean isHeldBy(String holderId);

    /**
     * The signal of the calling thread's hold: see {@link #whenLost(String)}.
     *
     * @return completes with the loss, if the lease is lost while the thread holds the lock
     * @throws IllegalMonitorStateException if the calling thread does not hold the lock
     */
    CompletionStage<LockLostException> whenLost();

    /**
     * A signal that completes, with a {@link LockLostException} saying what happened, when the
     * holder's lease is lost while it holds the lock: so that the work it does under the lock can
     * stop before another holder gets in. It completes when Redis no longer has the hold (it
     * expired, or the lock was deleted or force-released), and <em>before</em> the lease can end
     * when nothing confirms it: a fifth of a lease before the earliest moment it could end on the
     * server, judged by this client's clock from the send of the latest command that set it (with
     * the default 30 s watchdog lease, 6 s before, after three renewal tries in a row failed; with
     * an explicit lease, a fifth of it before it runs out). It also completes when the client is
     * closed while the lock is held. It never completes for a hold released normally. Its limits:
     * a JVM frozen past that margin hears it too late (fence what must not be written late, see
     * {@link FencedLock}); with replica acknowledgements, a failover may lose the renewals not yet
     * copied to the new master, up to a third of a lease, which the margin does not cover.
     *
     * <p>The signal covers the holder's hold as a whole (its re-entries included) until it is
     * released. Each call returns a stage of its own; cancelling it
     * ({@code toCompletableFuture().cancel(false)}) stops listening, which a caller that keeps a
     * hold a long time while asking again and again should do. Continuations run on the client's
     * own threads, never on the thread that talks to Redis; a continuation that blocks holds up
     * only other continuations.
     *
     * @param holderId the holder
     * @return completes with the loss, if the lease is lost while the holder holds the lock
     * @throws IllegalMonitorStateException if the holder does not hold the lock
     */
    CompletionStage<LockLostException> whenLost(String holderId);

    /**
     * {@link #confirmHeld(String, Duration)} for the calling thread.
     *
     * @param minLease the least lease that must be left; zero for "still held"
     * @return whether Redis confirmed the hold with at least that lease left
     * @throws LockException if Redis failed or did not answer in time
     */
    boolean confirmHeld(Duration minLease);

    /**
     * Asks Redis, in one round trip, whether the holder still holds the lock with at least
     * {@code minLease} of its lease left: the check to make right before a step that cannot be
     * undone. Never answered {@code true} from this client's own state. A watchdog lease is
     * renewed every third of it, so the lease left of a watchdog hold is between two thirds of a
     * lease and a whole one while renewals succeed.
     *
     * @param holderId the holder
     * @param minLease the least lease that must be left; zero for "still held"
     * @return whether Redis confirmed the hold with at least that lease left ({@code false} without
     *         asking if this client knows the holder holds nothing, or found its lease lost)
     * @throws LockException if Redis failed or did not answer in time
     */
    boolean confirmHeld(String holderId, Duration minLease);

    /**
     * {@link #confirmHeld(String, Duration)} without blocking.
     *
     * @param holderId the holder
     * @param minLease the least lease that must be left
     * @return completes with the answer, or with a {@link LockException} if Redis failed or did not
     *         answer in time
     */
    CompletableFuture<Boolean> confirmHeldAsync(String holderId, Duration minLease);

    /**
     * @return how many times the calling thread holds the lock (0 if it does not)
     */
    int getHoldCount();

    /**
     * @return remaining time to live of the lock in milliseconds; {@code -2} if it is not locked
     */
    long remainingTimeToLive();

    /**
     * Deletes the lock whoever holds it and wakes its waiters. For administration and tests:
     * the holder learns about it as a lost lease.
     *
     * @return {@code true} if a lock was deleted
     */
    boolean forceUnlock();

    /**
     * Tries to acquire the lock for an explicit holder.
     *
     * @param waitTime  how long to wait; {@code 0} tries once
     * @param leaseTime lease; {@code <= 0} means watchdog renewal until {@link #unlockAsync(String)}
     * @param unit      unit of both times
     * @param holderId  who holds the lock; the same id re-enters, {@link #unlockAsync(String)}
     *                  releases with it
     * @return a future of {@code true} if acquired, {@code false} if the wait time elapsed; it
     *         fails with {@link LockException} if Redis fails
     * @throws IllegalArgumentException if the lease is longer than 365 days (thrown, not a failed
     *                                  future: nothing was started)
     */
    CompletableFuture<Boolean> tryLockAsync(long waitTime, long leaseTime, TimeUnit unit, String holderId);

    /**
     * Releases one hold of an explicit holder.
     *
     * @param holderId the id given to {@link #tryLockAsync(long, long, TimeUnit, String)}
     * @return a future that fails with {@link IllegalMonitorStateException} if the holder holds
     *         nothing, {@link LockLostException} if its lease was lost, {@link LockException} if
     *         Redis fails (then retrying is safe, for a lock of a {@link LockClient}; a
     *         {@link MultiLock}'s or {@link RedLock}'s failure is final)
     */
    CompletableFuture<Void> unlockAsync(String holderId);

    /**
     * Releases one hold of an explicit holder like {@link #unlockAsync(String)}; if that was its
     * last, the lock stays taken, by nobody (not even this holder), until {@code keep} has passed,
     * and then frees itself. For work that must not run again within a period, such as a job
     * scheduled on several instances whose clocks or schedules differ a little: whichever instance
     * or thread comes next finds the lock taken until then. Reentrant and fenced locks support it.
     *
     * @param holderId the id given to {@link #tryLockAsync(long, long, TimeUnit, String)}
     * @param keep     how long the lock stays taken after the release, &gt; 0
     * @return as {@link #unlockAsync(String)}; fails with {@link UnsupportedOperationException} for
     *         a kind of lock that cannot be kept taken (fair, read, write, RedLock)
     */
    default CompletableFuture<Void> unlockKeepingAsync(String holderId, Duration keep) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException(
                "Lock '" + getName() + "' cannot be kept taken after its release; reentrant and fenced locks can"));
    }

    /**
     * Not supported: conditions need a local monitor that a distributed lock does not have.
     *
     * @throws UnsupportedOperationException always
     */
    @Override
    default Condition newCondition() {
        throw new UnsupportedOperationException("RedisLock does not support conditions");
    }
}

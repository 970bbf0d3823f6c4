package io.distlock.core;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * A semaphore held in Redis: at most {@link #permits()} permits are out at a time, across every
 * JVM that uses it ("at most 5 calls to the partner's API from the whole fleet"). It reads like
 * {@link java.util.concurrent.Semaphore}, with a holder per permit as the locks have one per hold:
 * the calling thread (of this {@link LockClient}), or an explicit holder id in the {@code *Async}
 * methods. A holder may take several permits; {@link #release()} gives back its latest one, and a
 * holder that holds none gets {@link IllegalMonitorStateException}.
 *
 * <p><b>Leases.</b> Every permit has a lease on the server's clock, as lock holds have, so the
 * permit of a crashed holder frees itself within its lease. Without a lease time the client's
 * watchdog renews it until {@code release()}; with one, it ends after it. A holder's permits share
 * one lease: the longest any of its acquisitions asked for. If it is lost while the holder works,
 * {@code release()} throws {@link LockLostException} and {@link #whenLost()} fires before that.
 *
 * <p><b>The permit count</b> is part of the semaphore's state in Redis, set by the first permit
 * taken and kept while any permit is out: a client that asks with another count fails with a
 * {@link LockException} saying so, never mixing two counts. {@link #setPermits(int)} changes it.
 * Once every permit is back, the semaphore leaves no key behind, and its count with it.
 *
 * <p><b>Waiting.</b> Waiters sleep until a permit is given back (a message on the semaphore's
 * channel) or the first lease of a holder ends, never polling. Waiters are not served in arrival
 * order. Every acquisition is counted once in Redis however often its command is sent, and an
 * abandoned one gives back a permit it still gets, as for the locks.
 *
 * <p>Instances are cheap and thread-safe; {@link LockClient#getSemaphore(String, int)} may be called
 * for every use or cached.
 */
public interface RedisSemaphore {

    /** @return the semaphore's name as given to {@link LockClient} (without key prefix) */
    String getName();

    /** @return the permit count this client uses the semaphore with */
    int permits();

    /**
     * Takes a permit, waiting as long as it takes; the watchdog renews its lease until
     * {@link #release()}.
     *
     * @throws InterruptedException if the thread was interrupted while waiting; nothing is held
     * @throws LockException        if Redis cannot be reached, or the semaphore has another permit count
     */
    void acquire() throws InterruptedException;

    /**
     * Takes a permit if one is free now (one round trip); the watchdog renews its lease.
     *
     * @return {@code true} if taken
     * @throws LockException if Redis cannot be reached, or the semaphore has another permit count
     */
    boolean tryAcquire();

    /**
     * Takes a permit within {@code waitTime}; the watchdog renews its lease.
     *
     * @param waitTime how long to wait; {@code 0} tries once
     * @param unit     unit of {@code waitTime}
     * @return {@code true} if taken, {@code false} if the wait time elapsed
     * @throws InterruptedException if the thread was interrupted while waiting; nothing is held
     * @throws LockException        if Redis cannot be reached, or the semaphore has another permit count
     */
    boolean tryAcquire(long waitTime, TimeUnit unit) throws InterruptedException;

    /**
     * Takes a permit within {@code waitTime}, with a lease.
     *
     * @param waitTime  how long to wait; {@code 0} tries once
     * @param leaseTime how long the permit lasts unless given back before; {@code <= 0} means the
     *                  watchdog renews it until {@link #release()}
     * @param unit      unit of both times
     * @return {@code true} if taken, {@code false} if the wait time elapsed
     * @throws InterruptedException     if the thread was interrupted while waiting; nothing is held
     * @throws LockException            if Redis cannot be reached, or the semaphore has another permit count
     * @throws IllegalArgumentException if the lease is longer than 365 days
     */
    boolean tryAcquire(long waitTime, long leaseTime, TimeUnit unit) throws InterruptedException;

    /**
     * Gives back the calling thread's latest permit.
     *
     * @throws IllegalMonitorStateException if the thread holds no permit of this semaphore
     * @throws LockLostException            if its lease was lost (the permit may have gone to another holder)
     * @throws LockException                if Redis cannot be reached
     */
    void release();

    /**
     * {@link #tryAcquire(long, long, TimeUnit)} for an explicit holder (see
     * {@link RedisLock#tryLockAsync(long, long, TimeUnit, String)}).
     *
     * @param waitTime  how long to wait; {@code 0} tries once
     * @param leaseTime how long the permit lasts; {@code <= 0} means watchdog renewal until release
     * @param unit      unit of both times
     * @param holderId  who takes the permit; give the same id to {@link #releaseAsync(String)}
     * @return completes with {@code true} if taken, {@code false} if the wait time elapsed
     */
    CompletableFuture<Boolean> tryAcquireAsync(long waitTime, long leaseTime, TimeUnit unit, String holderId);

    /**
     * @param holderId the id given to {@link #tryAcquireAsync(long, long, TimeUnit, String)}
     * @return completes when the holder's latest permit is back; fails as {@link #release()} throws
     */
    CompletableFuture<Void> releaseAsync(String holderId);

    /** @return how many permits the calling thread holds, as Redis says */
    int heldPermits();

    /**
     * @return how many permits are free now, as Redis says (holders whose lease ended do not count);
     *         negative while more permits are out than a lowered count allows
     */
    int availablePermits();

    /**
     * Changes the permit count in Redis, for every client. Permits already out stay out; waiters
     * look again at once when the count was raised. Clients that keep asking with the old count
     * fail until they use the new one; if no permit is out, there is no count to change, and the
     * next permit taken sets its own.
     *
     * @param permits the new count, &gt; 0
     * @return {@code true} if a count was changed, {@code false} if no permit was out
     * @throws IllegalArgumentException if {@code permits <= 0}
     * @throws LockException            if Redis cannot be reached
     */
    boolean setPermits(int permits);

    /**
     * @return completes when a lease of the calling thread's permits is lost (see
     *         {@link RedisLock#whenLost()})
     * @throws IllegalMonitorStateException if the thread holds no permit
     */
    CompletionStage<LockLostException> whenLost();

    /**
     * @param holderId a holder of a permit
     * @return completes when the holder's lease is lost (see {@link RedisLock#whenLost(String)})
     * @throws IllegalMonitorStateException if the holder holds no permit
     */
    CompletionStage<LockLostException> whenLost(String holderId);

    /**
     * Asks Redis, in one round trip, whether the calling thread still holds a permit with at least
     * {@code minLease} of its lease left (see {@link RedisLock#confirmHeld(Duration)}).
     *
     * @param minLease the lease the next step needs, &ge; 0
     * @return whether it does
     */
    boolean confirmHeld(Duration minLease);

    /**
     * @param holderId a holder of a permit
     * @param minLease the lease the next step needs, &ge; 0
     * @return whether the holder still holds a permit with that much lease left
     */
    boolean confirmHeld(String holderId, Duration minLease);

    /**
     * Takes every permit back from whoever holds it, and wakes the waiters: for operators
     * clearing a semaphore whose holders are known to be gone.
     *
     * @return {@code true} if any permit was out
     */
    boolean forceReleaseAll();

    /**
     * @return the semaphore as a {@link RedisLock} whose every hold is one permit: {@code lock()}
     *         takes a permit, {@code unlock()} gives back the holder's latest. What
     *         {@link LockTemplate}, {@link MultiLock} and the Spring starter work with
     */
    RedisLock asLock();
}

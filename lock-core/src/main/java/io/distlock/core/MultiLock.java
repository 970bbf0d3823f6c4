package io.distlock.core;

import io.distlock.core.internal.engine.Lease;
import io.distlock.core.internal.engine.SettableLease;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static io.distlock.core.CompositeLocks.allOrFirstFailure;
import static io.distlock.core.CompositeLocks.awaitUninterruptibly;
import static io.distlock.core.CompositeLocks.deadline;
import static io.distlock.core.CompositeLocks.remainingMillis;
import static io.distlock.core.CompositeLocks.requireSettableLeases;
import static io.distlock.core.CompositeLocks.releaseRetryingOnce;
import static io.distlock.core.CompositeLocks.unlockRetryingOnce;
import static io.distlock.core.CompositeLocks.unwrap;

/**
 * Several locks held as one, all or nothing: acquired one after another in the given order
 * within one wait time, and if one cannot be had, the ones already taken are released before the
 * call returns. The locks may come from different {@link LockClient}s (different Redis servers).
 * Two multi-locks over the same locks must list them in the same order, or they can deadlock
 * until their wait times end (the Spring starter sorts them by name).
 *
 * <pre>{@code
 * RedisLock both = new MultiLock(client.getLock("account:1"), client.getLock("account:2"));
 * if (both.tryLock(3, TimeUnit.SECONDS)) {
 *     try { transfer(); } finally { both.unlock(); }
 * }
 * }</pre>
 *
 * Hold counts, re-entry and lost-lease reporting are those of each component lock.
 *
 * <p><b>Leases.</b> An explicit lease starts once all components are held, for every component
 * alike: all but the last are acquired with the watchdog, so none runs out while a later one is
 * awaited, and then each gets the lease from that moment (one more round trip, to all of them at
 * once); the last is acquired with the lease itself. If one of them was lost meanwhile, the
 * acquisition fails with {@link LockLostException} and nothing is held. A component the holder
 * already held is re-entered as by {@code lock()}: its lease is never shortened. Components must
 * then be locks of a {@link LockClient}, {@link MultiLock}s or {@link RedLock}s; the untimed
 * {@link #lock(long, TimeUnit)} is safe too, as the components it holds while it waits are renewed.
 *
 * <p><b>Without a lease</b> (watchdog), components are renewed while later ones are awaited; but a
 * renewal can fail (a JVM frozen past the lease, Redis out of reach), and another holder may then
 * take a component. So once all are held, the components taken first are confirmed still held,
 * in one round trip to all at once, unless so little time passed that none can have run out
 * (half a watchdog timeout); if one is gone, the acquisition fails with {@link LockLostException}
 * and nothing is held. Only components that are locks of a {@link LockClient}, {@link MultiLock}s
 * or {@link RedLock}s can be asked; others are taken as they are.
 */
public final class MultiLock implements RedisLock {

    private final List<RedisLock> locks;

    /**
     * @param locks the locks, at least one, in the order they are acquired
     * @throws NullPointerException     if a lock is null
     * @throws IllegalArgumentException if there is none
     */
    public MultiLock(RedisLock... locks) {
        this(List.of(Objects.requireNonNull(locks, "locks must not be null")));
    }

    /**
     * @param locks the locks, at least one, in the order they are acquired
     * @throws NullPointerException     if a lock is null
     * @throws IllegalArgumentException if there is none
     */
    public MultiLock(List<? extends RedisLock> locks) {
        Objects.requireNonNull(locks, "locks must not be null");
        locks.forEach(lock -> Objects.requireNonNull(lock, "locks must not contain null"));
        if (locks.isEmpty()) {
            throw new IllegalArgumentException("a MultiLock needs at least one lock");
        }
        this.locks = List.copyOf(locks);
    }

    /** @return the component locks, in acquisition order */
    public List<RedisLock> locks() {
        return locks;
    }

    @Override
    public String getName() {
        return locks.stream().map(RedisLock::getName).collect(Collectors.joining(",", "multi[", "]"));
    }

    @Override
    public void lock() {
        lockEach(Lease.watchdog());
    }

    /** Waits as long as it takes; the components acquired meanwhile are kept by the watchdog. */
    @Override
    public void lock(long leaseTime, TimeUnit unit) {
        lockEach(Lease.of(leaseTime, unit));
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        acquireAll(Long.MAX_VALUE, Lease.watchdog());
    }

    /** Tries every component once, like {@link java.util.concurrent.locks.Lock#tryLock()}: no interrupt. */
    @Override
    public boolean tryLock() {
        try {
            return acquireEach(Lease.watchdog(), (lock, lease) -> lock.tryLock());
        } catch (InterruptedException e) {
            throw new IllegalStateException("tryLock() of a component was interrupted", e);
        }
    }

    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        return acquireAll(Objects.requireNonNull(unit, "unit must not be null").toMillis(time), Lease.watchdog());
    }

    @Override
    public boolean tryLock(long waitTime, long leaseTime, TimeUnit unit) throws InterruptedException {
        Lease lease = Lease.of(leaseTime, unit);
        return acquireAll(unit.toMillis(waitTime), lease);
    }

    /**
     * Releases every lock, last acquired first; all are tried even if some fail. The release of a
     * lock of a {@link LockClient} that Redis did not confirm is sent once more; a composite
     * component ({@link MultiLock}, {@link RedLock}) decides for its own components and is not.
     * Unlike a single lock's, a failed {@code unlock()} of a MultiLock must not be called again.
     *
     * @throws IllegalMonitorStateException (or {@link LockLostException}, {@link LockException}) the
     *                                      first failure, later ones suppressed in it
     */
    @Override
    public void unlock() {
        releaseFirst(locks.size(), null);
    }

    @Override
    public boolean isLocked() {
        return locks.stream().allMatch(RedisLock::isLocked);
    }

    @Override
    public boolean isHeldByCurrentThread() {
        return locks.stream().allMatch(RedisLock::isHeldByCurrentThread);
    }

    @Override
    public boolean isHeldBy(String holderId) {
        return locks.stream().allMatch(lock -> lock.isHeldBy(holderId));
    }

    /** @return completes when a component's lease is lost (see {@link RedisLock#whenLost(String)}) */
    @Override
    public CompletionStage<LockLostException> whenLost() {
        return lostWhenAny(locks.stream().<Supplier<CompletionStage<LockLostException>>>map(lock -> lock::whenLost)
                .toList());
    }

    /** @return completes when a component's lease is lost (see {@link RedisLock#whenLost(String)}) */
    @Override
    public CompletionStage<LockLostException> whenLost(String holderId) {
        Objects.requireNonNull(holderId, "holderId must not be null");
        return lostWhenAny(locks.stream()
                .<Supplier<CompletionStage<LockLostException>>>map(lock -> () -> lock.whenLost(holderId)).toList());
    }

    private CompletionStage<LockLostException> lostWhenAny(List<Supplier<CompletionStage<LockLostException>>> signals) {
        List<Integer> all = IntStream.range(0, locks.size()).boxed().toList();
        return CompositeLocks.lostWhen(getName(), signals, List.of(new CompositeLocks.LossGroup(all, 1)));
    }

    /**
     * Asks each component in turn (one round trip each; {@link #confirmHeldAsync} asks all at once).
     *
     * @return whether every component confirmed the calling thread's hold with that lease left
     */
    @Override
    public boolean confirmHeld(Duration minLease) {
        return locks.stream().allMatch(lock -> lock.confirmHeld(minLease));
    }

    /** @return whether every component confirmed the hold with that lease left (asked all at once) */
    @Override
    public boolean confirmHeld(String holderId, Duration minLease) {
        return awaitUninterruptibly(confirmHeldAsync(holderId, minLease));
    }

    /** @return completes with whether every component confirmed the hold with that lease left */
    @Override
    public CompletableFuture<Boolean> confirmHeldAsync(String holderId, Duration minLease) {
        List<CompletableFuture<Boolean>> answers = locks.stream()
                .map(lock -> lock.confirmHeldAsync(holderId, minLease)).toList();
        return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new))
                .thenApply(all -> answers.stream().allMatch(CompletableFuture::join));
    }

    /** @return the smallest hold count of the calling thread over the components */
    @Override
    public int getHoldCount() {
        return locks.stream().mapToInt(RedisLock::getHoldCount).min().orElse(0);
    }

    /** @return the shortest remaining time to live of the components; {@code -2} if one is not locked */
    @Override
    public long remainingTimeToLive() {
        long shortest = Long.MAX_VALUE;
        for (RedisLock lock : locks) {
            long ttl = lock.remainingTimeToLive();
            if (ttl == -2) {
                return -2;
            }
            if (ttl >= 0) {
                shortest = Math.min(shortest, ttl);
            }
        }
        return shortest == Long.MAX_VALUE ? -1 : shortest;
    }

    /** @return {@code true} if any component was deleted */
    @Override
    public boolean forceUnlock() {
        boolean any = false;
        for (RedisLock lock : locks) {
            any |= lock.forceUnlock();
        }
        return any;
    }

    /**
     * Acquires every lock for the holder, in order, within one wait time. Ending the returned
     * future yourself (cancel, {@code orTimeout}) gives back whatever was or is still acquired.
     */
    @Override
    public CompletableFuture<Boolean> tryLockAsync(long waitTime, long leaseTime, TimeUnit unit, String holderId) {
        Objects.requireNonNull(unit, "unit must not be null");
        Objects.requireNonNull(holderId, "holderId must not be null");
        Lease lease = Lease.of(leaseTime, unit);
        requireSettableLeasesFor(lease);
        AsyncAcquisition acquisition = new AsyncAcquisition(deadline(unit.toMillis(waitTime)), lease, holderId);
        acquisition.next(0);
        return acquisition.outcome;
    }

    /**
     * How a composite around this one gives it its lease (see {@link CompositeLocks#settable}):
     * not part of the API, so this lock's public type implements no engine interface.
     */
    final SettableLease leases = new SettableLease() {
        @Override
        public CompletableFuture<Void> leaseFromNow(String holderId, Lease lease, long acquiringSinceNanos) {
            return MultiLock.this.leaseFromNow(holderId, lease, acquiringSinceNanos);
        }

        @Override
        public CompletableFuture<Void> leaseFromNow(Lease lease, long acquiringSinceNanos) {
            return MultiLock.this.leaseFromNow(lease, acquiringSinceNanos);
        }
    };

    /** Gives every component, acquired with the watchdog, its explicit lease from now, all at once. */
    CompletableFuture<Void> leaseFromNow(String holderId, Lease lease, long acquiringSinceNanos) {
        Objects.requireNonNull(holderId, "holderId must not be null");
        return leaseEach(locks, lease, lock -> lock.leaseFromNow(holderId, lease, acquiringSinceNanos));
    }

    /** {@link #leaseFromNow(String, Lease, long)} for the calling thread's holds. */
    CompletableFuture<Void> leaseFromNow(Lease lease, long acquiringSinceNanos) {
        return leaseEach(locks, lease, lock -> lock.leaseFromNow(lease, acquiringSinceNanos));
    }

    /**
     * Releases every lock of the holder, last first; all are tried; fails with the first failure.
     * A component release that Redis did not confirm ({@link LockException}) is sent once more,
     * which is safe: a release never happens twice.
     */
    @Override
    public CompletableFuture<Void> unlockAsync(String holderId) {
        Objects.requireNonNull(holderId, "holderId must not be null");
        return releaseFirstAsync(locks.size(), holderId);
    }

    /** Keeps every component taken (all must be reentrant or fenced locks). */
    @Override
    public CompletableFuture<Void> unlockKeepingAsync(String holderId, Duration keep) {
        Objects.requireNonNull(holderId, "holderId must not be null");
        return releaseEachAsync(locks.size(), component -> component.unlockKeepingAsync(holderId, keep));
    }

    @Override
    public String toString() {
        return getName();
    }

    /** One component's acquisition with a lease: {@code false} if it was not acquired. */
    private interface Attempt {
        boolean on(RedisLock lock, Lease lease) throws InterruptedException;
    }

    private void lockEach(Lease lease) {
        try {
            acquireEach(lease, (component, componentLease) -> {
                component.lock(componentLease.asLeaseTime(), TimeUnit.MILLISECONDS);
                return true;
            });
        } catch (InterruptedException e) {
            throw new IllegalStateException("an uninterruptible lock() of a component was interrupted", e);
        }
    }

    /** @param waitMillis {@code Long.MAX_VALUE}: no limit */
    private boolean acquireAll(long waitMillis, Lease lease) throws InterruptedException {
        long deadline = deadline(waitMillis);
        return acquireEach(lease, (lock, componentLease) ->
                lock.tryLock(remainingMillis(deadline), componentLease.asLeaseTime(), TimeUnit.MILLISECONDS));
    }

    /**
     * Acquires the components in order, with an explicit lease as the class comment says; if one
     * is not acquired or fails, gives back the others.
     */
    private boolean acquireEach(Lease lease, Attempt attempt) throws InterruptedException {
        requireSettableLeasesFor(lease);
        long sinceNanos = System.nanoTime();
        int held = 0;
        try {
            for (RedisLock lock : locks) {
                if (!attempt.on(lock, leaseOnAcquiring(held, lease))) {
                    break;
                }
                held++;
            }
            if (held == locks.size()) {
                awaitUninterruptibly(settleFirstOnes(lease, lock -> lock.leaseFromNow(lease, sinceNanos)));
            }
        } catch (InterruptedException | RuntimeException e) {
            releaseFirst(held, e);
            throw e;
        }
        if (held < locks.size()) {
            releaseFirst(held, null);
            return false;
        }
        return true;
    }

    /**
     * @param lease the lease asked for
     * @throws UnsupportedOperationException if there is a lease and one of the components but the
     *                                       last, acquired with the watchdog, cannot take it once
     *                                       all are held
     */
    private void requireSettableLeasesFor(Lease lease) {
        if (!lease.isWatchdog()) {
            requireSettableLeases(locks.subList(0, locks.size() - 1));
        }
    }

    /** @return the lease component {@code index} is acquired with: the one asked for is the last one's */
    private Lease leaseOnAcquiring(int index, Lease lease) {
        return index == locks.size() - 1 ? lease : Lease.watchdog();
    }

    /**
     * Gives the components, acquired with the watchdog, their lease from now, or confirms them
     * still held ({@link CompositeLocks#leaseFromNow}), all at once.
     */
    private static CompletableFuture<Void> leaseEach(List<RedisLock> components, Lease lease,
                                                     Function<SettableLease, CompletableFuture<Void>> setLease) {
        List<CompletableFuture<Void>> leases = new ArrayList<>(components.size());
        for (RedisLock lock : components) {
            leases.add(CompositeLocks.leaseFromNow(lock, lease, setLease));
        }
        return allOrFirstFailure(leases);
    }

    /**
     * All components are held: all but the last, acquired with the watchdog, get their lease from
     * now, or without a lease are confirmed still held (those that can be asked), all at once.
     *
     * @param lease    the lease asked for
     * @param setLease {@link SettableLease#leaseFromNow} with that lease, on a component
     * @return completes when all answered; fails with the first failure
     */
    private CompletableFuture<Void> settleFirstOnes(Lease lease,
                                                    Function<SettableLease, CompletableFuture<Void>> setLease) {
        return leaseEach(locks.subList(0, locks.size() - 1), lease, setLease);
    }

    /**
     * Releases components {@code count-1 .. 0} of the calling thread, each once (a single lock's
     * release Redis did not confirm is sent once more, which is safe; a composite's is not). Do not call it again after a failure: the
     * components that were released would be released twice.
     *
     * @param primary a failure already on its way to the caller: release failures are suppressed
     *                in it; if {@code null}, the first release failure is thrown
     */
    private void releaseFirst(int count, @Nullable Throwable primary) {
        RuntimeException first = null;
        for (int i = count - 1; i >= 0; i--) {
            try {
                unlockRetryingOnce(locks.get(i));
            } catch (RuntimeException e) {
                if (primary != null) {
                    primary.addSuppressed(e);
                } else if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /** Releases components {@code count-1 .. 0} of the holder one after another; fails with the first failure. */
    private CompletableFuture<Void> releaseFirstAsync(int count, String holderId) {
        return releaseEachAsync(count, component -> component.unlockAsync(holderId));
    }

    /** Runs {@code release} on components {@code count-1 .. 0} one after another; fails with the first failure. */
    private CompletableFuture<Void> releaseEachAsync(int count, Function<RedisLock, CompletableFuture<Void>> release) {
        List<CompletableFuture<Void>> releases = new ArrayList<>(count);
        CompletableFuture<Void> previous = CompletableFuture.completedFuture(null);
        for (int i = count - 1; i >= 0; i--) {
            RedisLock lock = locks.get(i);
            previous = previous.handle((ok, error) -> null).thenCompose(ignored -> releaseRetryingOnce(lock, release));
            releases.add(previous);
        }
        return allOrFirstFailure(releases);
    }

    /** One asynchronous run over the components; the caller may end its outcome at any time. */
    private final class AsyncAcquisition {

        final CompletableFuture<Boolean> outcome = new CompletableFuture<>();
        private final long deadline;
        private final Lease lease;
        private final String holderId;
        private final long sinceNanos = System.nanoTime();
        private volatile @Nullable CompletableFuture<Boolean> step;

        AsyncAcquisition(long deadline, Lease lease, String holderId) {
            this.deadline = deadline;
            this.lease = lease;
            this.holderId = holderId;
            outcome.whenComplete((ok, error) -> {
                CompletableFuture<Boolean> current = step;
                if (error != null && current != null) {
                    current.cancel(false); // the component gives back a hold that still arrives
                }
            });
        }

        /** Components {@code 0 .. index-1} are held; takes the next one, or finishes. */
        void next(int index) {
            if (outcome.isDone()) {
                releaseFirstAsync(index, holderId); // ended by the caller meanwhile
                return;
            }
            if (index == locks.size()) {
                allHeld();
                return;
            }
            CompletableFuture<Boolean> attempt;
            try {
                attempt = locks.get(index).tryLockAsync(remainingMillis(deadline),
                        leaseOnAcquiring(index, lease).asLeaseTime(), TimeUnit.MILLISECONDS, holderId);
            } catch (RuntimeException e) {
                fail(index, e); // e.g. the component's client was closed: nothing was sent for it
                return;
            }
            step = attempt;
            if (outcome.isDone()) {
                attempt.cancel(false);
            }
            attempt.whenComplete((acquired, error) -> {
                if (error != null) {
                    fail(index, error);
                } else if (!acquired) {
                    releaseFirstAsync(index, holderId).whenComplete((ok, ignored) -> outcome.complete(false));
                } else {
                    next(index + 1);
                }
            });
        }

        /** Every component is held: settles all but the last ({@link #settleFirstOnes}), and succeeds. */
        private void allHeld() {
            int held = locks.size();
            CompletableFuture<Void> settled =
                    settleFirstOnes(lease, lock -> lock.leaseFromNow(holderId, lease, sinceNanos));
            settled.whenComplete((ok, error) -> {
                if (error != null) {
                    fail(held, error);
                } else if (!outcome.complete(true)) {
                    releaseFirstAsync(held, holderId); // ended by the caller meanwhile
                }
            });
        }

        /** Gives back components {@code 0 .. held-1}, then fails with the error. */
        private void fail(int held, Throwable error) {
            releaseFirstAsync(held, holderId)
                    .whenComplete((ok, ignored) -> outcome.completeExceptionally(unwrap(error)));
        }
    }
}

package io.distlock.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import static io.distlock.core.CompositeLocks.deadline;
import static io.distlock.core.CompositeLocks.remainingMillis;
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
 * Hold counts, leases, re-entry and lost-lease reporting are those of each component lock.
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
        lockEach(RedisLock::lock);
    }

    @Override
    public void lock(long leaseTime, TimeUnit unit) {
        Objects.requireNonNull(unit, "unit must not be null");
        lockEach(lock -> lock.lock(leaseTime, unit));
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        acquireAll(Long.MAX_VALUE, -1);
    }

    /** Tries every component once, like {@link java.util.concurrent.locks.Lock#tryLock()}: no interrupt. */
    @Override
    public boolean tryLock() {
        try {
            return acquireEach(RedisLock::tryLock);
        } catch (InterruptedException e) {
            throw new IllegalStateException("tryLock() of a component was interrupted", e);
        }
    }

    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        return acquireAll(Objects.requireNonNull(unit, "unit must not be null").toMillis(time), -1);
    }

    @Override
    public boolean tryLock(long waitTime, long leaseTime, TimeUnit unit) throws InterruptedException {
        Objects.requireNonNull(unit, "unit must not be null");
        return acquireAll(unit.toMillis(waitTime), unit.toMillis(leaseTime));
    }

    /**
     * Releases every lock, last acquired first; all are tried even if some fail. A component
     * release Redis did not confirm is sent once more; unlike a single lock's, a failed
     * {@code unlock()} of a MultiLock must not be called again.
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
        long deadline = deadline(unit.toMillis(waitTime));
        AsyncAcquisition acquisition = new AsyncAcquisition(deadline, unit.toMillis(leaseTime), holderId);
        acquisition.next(0);
        return acquisition.outcome;
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

    @Override
    public String toString() {
        return getName();
    }

    /** One component's acquisition: {@code false} if it was not acquired. */
    private interface Attempt {
        boolean on(RedisLock lock) throws InterruptedException;
    }

    private void lockEach(Consumer<RedisLock> lock) {
        try {
            acquireEach(component -> {
                lock.accept(component);
                return true;
            });
        } catch (InterruptedException e) {
            throw new IllegalStateException("an uninterruptible lock() of a component was interrupted", e);
        }
    }

    /** @param waitMillis {@code Long.MAX_VALUE}: no limit */
    private boolean acquireAll(long waitMillis, long leaseMillis) throws InterruptedException {
        long deadline = deadline(waitMillis);
        return acquireEach(lock -> lock.tryLock(remainingMillis(deadline), leaseMillis, TimeUnit.MILLISECONDS));
    }

    /** Acquires the components in order; if one is not acquired or fails, gives back the others. */
    private boolean acquireEach(Attempt attempt) throws InterruptedException {
        int held = 0;
        try {
            for (RedisLock lock : locks) {
                if (!attempt.on(lock)) {
                    break;
                }
                held++;
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
     * Releases components {@code count-1 .. 0} of the calling thread, each once (a release Redis
     * did not confirm is sent once more, which is safe). Do not call it again after a failure: the
     * components that were released would be released twice.
     *
     * @param primary a failure already on its way to the caller: release failures are suppressed
     *                in it; if {@code null}, the first release failure is thrown
     */
    private void releaseFirst(int count, Throwable primary) {
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

    private CompletableFuture<Void> releaseFirstAsync(int count, String holderId) {
        CompletableFuture<Void> chain = CompletableFuture.completedFuture(null);
        List<Throwable> failures = new ArrayList<>(0);
        for (int i = count - 1; i >= 0; i--) {
            RedisLock lock = locks.get(i);
            chain = chain.thenCompose(ignored -> unlockRetryingOnce(lock, holderId).handle((ok, error) -> {
                if (error != null) {
                    failures.add(unwrap(error));
                }
                return null;
            }));
        }
        return chain.thenCompose(ignored -> {
            if (failures.isEmpty()) {
                return CompletableFuture.completedFuture(null);
            }
            Throwable first = failures.get(0);
            failures.subList(1, failures.size()).forEach(first::addSuppressed);
            return CompletableFuture.failedFuture(first);
        });
    }

    /** One asynchronous run over the components; the caller may end its outcome at any time. */
    private final class AsyncAcquisition {

        final CompletableFuture<Boolean> outcome = new CompletableFuture<>();
        private final long deadline;
        private final long leaseMillis;
        private final String holderId;
        private volatile CompletableFuture<Boolean> step;

        AsyncAcquisition(long deadline, long leaseMillis, String holderId) {
            this.deadline = deadline;
            this.leaseMillis = leaseMillis;
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
                if (!outcome.complete(true)) {
                    releaseFirstAsync(index, holderId);
                }
                return;
            }
            CompletableFuture<Boolean> attempt;
            try {
                attempt = locks.get(index).tryLockAsync(remainingMillis(deadline), leaseMillis, TimeUnit.MILLISECONDS,
                        holderId);
            } catch (RuntimeException e) {
                // e.g. the component's client was closed: nothing was sent for it
                releaseFirstAsync(index, holderId).whenComplete((ok, ignored) -> outcome.completeExceptionally(e));
                return;
            }
            step = attempt;
            if (outcome.isDone()) {
                attempt.cancel(false);
            }
            attempt.whenComplete((acquired, error) -> {
                if (error != null) {
                    releaseFirstAsync(index, holderId)
                            .whenComplete((ok, ignored) -> outcome.completeExceptionally(unwrap(error)));
                } else if (!acquired) {
                    releaseFirstAsync(index, holderId).whenComplete((ok, ignored) -> outcome.complete(false));
                } else {
                    next(index + 1);
                }
            });
        }
    }
}

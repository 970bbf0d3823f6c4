package io.distlock.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * The Redlock algorithm over independent Redis masters: one lock of the same name per master,
 * each from its own {@link LockClient}. An acquisition tries every master at once, each attempt
 * cut off after a short per-node timeout, and succeeds when a majority granted the lock with
 * lease left: validity = lease − time spent − clock drift allowance (1% of the lease + 2 ms).
 * Otherwise it releases what it got, backs off a random few milliseconds and tries again until the
 * wait time is spent. Release goes to every master.
 *
 * <pre>{@code
 * RedisLock lock = new RedLock(node1.getLock("job"), node2.getLock("job"), node3.getLock("job"));
 * if (lock.tryLock(2, 10, TimeUnit.SECONDS)) { try { ... } finally { lock.unlock(); } }
 * }</pre>
 *
 * <p><b>Limits.</b> Safety rests on timing assumptions: bounded clock drift between the masters,
 * and no process pause or network delay longer than the validity. A holder paused past its lease
 * still believes it holds the lock; a master that restarts without persistence forgets its grant.
 * Where a stale holder must not write, use a {@link FencedLock} and have the storage check the
 * token.
 */
public final class RedLock implements RedisLock {

    /** Per-node attempt timeout when the lease is the watchdog's (no explicit lease). */
    public static final Duration DEFAULT_ATTEMPT_TIMEOUT = Duration.ofMillis(500);

    private static final String JVM = UUID.randomUUID().toString();

    private final List<RedisLock> locks;
    private final int quorum;
    private final Duration attemptTimeout;
    /** Per holder, how many times each master granted it the lock (to release exactly those). */
    private final ConcurrentHashMap<String, int[]> granted = new ConcurrentHashMap<>();

    /**
     * @param locks the lock of the same name on each independent master (at least 1; 3 or 5 in
     *              practice), each from its own client
     */
    public RedLock(RedisLock... locks) {
        this(null, List.of(Objects.requireNonNull(locks, "locks must not be null")));
    }

    /**
     * @param attemptTimeout how long one master may take to answer one attempt; {@code null}: a
     *                       tenth of an explicit lease (at most 500 ms), or 500 ms for the watchdog
     * @param locks          the lock of the same name on each independent master
     */
    public RedLock(Duration attemptTimeout, List<? extends RedisLock> locks) {
        Objects.requireNonNull(locks, "locks must not be null");
        locks.forEach(lock -> Objects.requireNonNull(lock, "locks must not contain null"));
        if (locks.isEmpty()) {
            throw new IllegalArgumentException("a RedLock needs at least one master's lock");
        }
        if (attemptTimeout != null && (attemptTimeout.isNegative() || attemptTimeout.isZero())) {
            throw new IllegalArgumentException("attemptTimeout must be positive, but was " + attemptTimeout);
        }
        this.locks = List.copyOf(locks);
        this.quorum = locks.size() / 2 + 1;
        this.attemptTimeout = attemptTimeout;
    }

    /** @return how many masters must grant the lock */
    public int quorum() {
        return quorum;
    }

    @Override
    public String getName() {
        return "redlock[" + locks.get(0).getName() + " x" + locks.size() + "]";
    }

    @Override
    public void lock() {
        lock(-1, TimeUnit.MILLISECONDS);
    }

    @Override
    public void lock(long leaseTime, TimeUnit unit) {
        boolean interrupted = false;
        while (true) {
            try {
                await(acquire(Long.MAX_VALUE, unit.toMillis(leaseTime), threadHolder()));
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        await(acquire(Long.MAX_VALUE, -1, threadHolder()));
    }

    @Override
    public boolean tryLock() {
        try {
            return await(acquire(0, -1, threadHolder()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        return await(acquire(unit.toMillis(time), -1, threadHolder()));
    }

    @Override
    public boolean tryLock(long waitTime, long leaseTime, TimeUnit unit) throws InterruptedException {
        return await(acquire(unit.toMillis(waitTime), unit.toMillis(leaseTime), threadHolder()));
    }

    /**
     * Releases the lock on every master that granted it.
     *
     * @throws IllegalMonitorStateException if the calling thread does not hold it
     * @throws LockLostException            if fewer than a majority still had it
     */
    @Override
    public void unlock() {
        CompletableFuture<Void> released = unlockAsync(threadHolder());
        try {
            released.get(answerLimitMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockException("Interrupted while releasing " + getName() + "; it is released when its lease ends",
                    e);
        } catch (TimeoutException e) {
            throw new LockException("No answer from the masters while releasing " + getName());
        } catch (ExecutionException e) {
            throw unchecked(e.getCause());
        }
    }

    @Override
    public boolean isLocked() {
        return locks.stream().filter(lock -> quietly(lock::isLocked)).count() >= quorum;
    }

    @Override
    public boolean isHeldByCurrentThread() {
        return isHeldBy(threadHolder());
    }

    @Override
    public boolean isHeldBy(String holderId) {
        return locks.stream().filter(lock -> quietly(() -> lock.isHeldBy(holderId))).count() >= quorum;
    }

    /** @return how many times the calling thread holds the lock (re-entries count) */
    @Override
    public int getHoldCount() {
        int[] counts = granted.get(threadHolder());
        return counts == null ? 0 : Arrays.stream(counts).max().orElse(0);
    }

    /** @return the time to live a majority of masters still grant, in ms; {@code -2} if no majority */
    @Override
    public long remainingTimeToLive() {
        List<Long> ttls = new ArrayList<>();
        for (RedisLock lock : locks) {
            try {
                ttls.add(lock.remainingTimeToLive());
            } catch (LockException e) {
                ttls.add(-2L); // an unreachable master grants nothing
            }
        }
        ttls.sort(null);
        return ttls.get(ttls.size() - quorum);
    }

    @Override
    public boolean forceUnlock() {
        boolean any = false;
        for (RedisLock lock : locks) {
            any |= quietly(lock::forceUnlock);
        }
        granted.clear();
        return any;
    }

    /**
     * Acquires on a majority of masters for the holder. Ending the future yourself (cancel,
     * {@code orTimeout}) gives back whatever was or is still granted.
     */
    @Override
    public CompletableFuture<Boolean> tryLockAsync(long waitTime, long leaseTime, TimeUnit unit, String holderId) {
        Objects.requireNonNull(unit, "unit must not be null");
        Objects.requireNonNull(holderId, "holderId must not be null");
        return acquire(unit.toMillis(waitTime), unit.toMillis(leaseTime), holderId);
    }

    /** Releases one hold of the holder on every master that granted it. */
    @Override
    public CompletableFuture<Void> unlockAsync(String holderId) {
        Objects.requireNonNull(holderId, "holderId must not be null");
        boolean[] releasing = new boolean[locks.size()];
        int[] left = granted.computeIfPresent(holderId, (holder, counts) -> {
            int[] next = counts.clone();
            for (int i = 0; i < next.length; i++) {
                if (next[i] > 0) {
                    next[i]--;
                    releasing[i] = true;
                }
            }
            return Arrays.stream(next).allMatch(count -> count == 0) ? null : next;
        });
        boolean any = false;
        for (boolean release : releasing) {
            any |= release;
        }
        if (!any && left == null) {
            return CompletableFuture.failedFuture(new IllegalMonitorStateException(getName() + " is not held by "
                    + (holderId.equals(threadHolder()) ? "the current thread" : "holder '" + holderId + "'")));
        }
        AtomicInteger released = new AtomicInteger();
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        List<CompletableFuture<Void>> releases = new ArrayList<>();
        for (int i = 0; i < locks.size(); i++) {
            if (releasing[i]) {
                releases.add(unlockQuietly(locks.get(i), holderId).handle((ok, error) -> {
                    if (error == null) {
                        released.incrementAndGet();
                    } else {
                        failures.add(unwrap(error));
                    }
                    return null;
                }));
            }
        }
        return CompletableFuture.allOf(releases.toArray(CompletableFuture[]::new)).thenCompose(ignored -> {
            if (released.get() >= quorum) {
                return CompletableFuture.completedFuture(null);
            }
            LockLostException lost = new LockLostException(getName(), "Only " + released.get() + " of "
                    + locks.size() + " masters still held " + getName() + " at unlock (a majority is " + quorum
                    + "): another holder may have had it meanwhile");
            failures.forEach(lost::addSuppressed);
            return CompletableFuture.failedFuture(lost);
        });
    }

    @Override
    public String toString() {
        return getName();
    }

    private CompletableFuture<Boolean> acquire(long waitMillis, long leaseMillis, String holderId) {
        Round round = new Round(deadline(waitMillis), leaseMillis, holderId);
        round.run();
        return round.outcome;
    }

    /** Successive attempts on all masters until a majority grants the lock or the wait ends. */
    private final class Round {

        final CompletableFuture<Boolean> outcome = new CompletableFuture<>();
        private final long deadline;
        private final long leaseMillis;
        private final String holderId;

        Round(long deadline, long leaseMillis, String holderId) {
            this.deadline = deadline;
            this.leaseMillis = leaseMillis;
            this.holderId = holderId;
        }

        void run() {
            long start = System.nanoTime();
            long timeout = attemptTimeoutMillis(leaseMillis);
            List<CompletableFuture<Boolean>> attempts = new ArrayList<>(locks.size());
            for (RedisLock lock : locks) {
                CompletableFuture<Boolean> attempt;
                try {
                    attempt = lock.tryLockAsync(0, leaseMillis, TimeUnit.MILLISECONDS, holderId);
                } catch (RuntimeException e) {
                    attempt = CompletableFuture.failedFuture(e);
                }
                // Cutting an attempt off cancels it: the component gives back a late grant.
                attempts.add(attempt.orTimeout(timeout, TimeUnit.MILLISECONDS));
            }
            CompletableFuture.allOf(attempts.stream().map(a -> a.handle((ok, error) -> null))
                    .toArray(CompletableFuture[]::new)).thenRun(() -> decide(attempts, start));
        }

        private void decide(List<CompletableFuture<Boolean>> attempts, long start) {
            boolean[] held = new boolean[locks.size()];
            int grants = 0;
            for (int i = 0; i < attempts.size(); i++) {
                held[i] = attempts.get(i).isDone() && !attempts.get(i).isCompletedExceptionally()
                        && attempts.get(i).join();
                grants += held[i] ? 1 : 0;
            }
            long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            boolean valid = leaseMillis <= 0 || leaseMillis - elapsedMillis - (leaseMillis / 100 + 2) > 0;
            if (grants >= quorum && valid && !outcome.isDone()) {
                record(held, +1);
                if (outcome.complete(true)) {
                    return;
                }
                record(held, -1); // ended by the caller meanwhile: give back below
            }
            releaseAll(held).whenComplete((ok, error) -> {
                long remaining = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (outcome.isDone()) {
                    return;
                }
                if (remaining <= 0) {
                    outcome.complete(false);
                    return;
                }
                long backoff = Math.min(remaining, ThreadLocalRandom.current().nextLong(5, 50));
                CompletableFuture.delayedExecutor(backoff, TimeUnit.MILLISECONDS).execute(this::run);
            });
        }

        private void record(boolean[] held, int delta) {
            granted.compute(holderId, (holder, counts) -> {
                int[] next = counts == null ? new int[locks.size()] : counts.clone();
                for (int i = 0; i < next.length; i++) {
                    next[i] += held[i] ? delta : 0;
                }
                return Arrays.stream(next).allMatch(count -> count == 0) ? null : next;
            });
        }

        private CompletableFuture<Void> releaseAll(boolean[] held) {
            List<CompletableFuture<Void>> releases = new ArrayList<>();
            for (int i = 0; i < held.length; i++) {
                if (held[i]) {
                    releases.add(unlockQuietly(locks.get(i), holderId).handle((ok, error) -> null));
                }
            }
            return CompletableFuture.allOf(releases.toArray(CompletableFuture[]::new));
        }
    }

    private long attemptTimeoutMillis(long leaseMillis) {
        if (attemptTimeout != null) {
            return attemptTimeout.toMillis();
        }
        long cap = DEFAULT_ATTEMPT_TIMEOUT.toMillis();
        return leaseMillis > 0 ? Math.max(1, Math.min(cap, leaseMillis / 10)) : cap;
    }

    private boolean await(CompletableFuture<Boolean> acquiring) throws InterruptedException {
        try {
            return acquiring.get();
        } catch (InterruptedException e) {
            acquiring.cancel(false);
            acquiring.thenAccept(acquired -> {
                if (acquired) {
                    unlockAsync(threadHolder());
                }
            });
            throw e;
        } catch (ExecutionException e) {
            throw unchecked(e.getCause());
        }
    }

    private String threadHolder() {
        return JVM + ":" + Thread.currentThread().getId();
    }

    private long answerLimitMillis() {
        return 2 * DEFAULT_ATTEMPT_TIMEOUT.toMillis() + 10_000;
    }

    private static long deadline(long waitMillis) {
        long now = System.nanoTime();
        long waitNanos = TimeUnit.MILLISECONDS.toNanos(Math.max(0, waitMillis));
        return waitNanos >= Long.MAX_VALUE - now ? Long.MAX_VALUE : now + waitNanos;
    }

    private static CompletableFuture<Void> unlockQuietly(RedisLock lock, String holderId) {
        try {
            return lock.unlockAsync(holderId);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private static boolean quietly(BooleanSupplier check) {
        try {
            return check.getAsBoolean();
        } catch (LockException e) {
            return false; // an unreachable master counts as not granting
        }
    }

    private static Throwable unwrap(Throwable error) {
        return error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    }

    private static RuntimeException unchecked(Throwable error) {
        Throwable cause = unwrap(error);
        return cause instanceof RuntimeException runtime ? runtime : new LockException(cause.toString(), cause);
    }
}

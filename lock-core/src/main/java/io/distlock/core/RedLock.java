package io.distlock.core;

import io.distlock.core.internal.engine.Lease;
import io.distlock.core.internal.engine.NotConnectedException;
import io.distlock.core.internal.engine.SettableLease;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.IntStream;

import static io.distlock.core.CompositeLocks.awaitUninterruptibly;
import static io.distlock.core.CompositeLocks.deadline;
import static io.distlock.core.CompositeLocks.unchecked;
import static io.distlock.core.CompositeLocks.unlockRetryingOnce;
import static io.distlock.core.CompositeLocks.unwrap;

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

    /**
     * The lock type the masters' clients report for their holds
     * ({@link LockClient.Builder#reportedLockType}), so that metrics and traces count them as
     * parts of a RedLock, one per master.
     */
    public static final String LOCK_TYPE = "red_lock";

    private static final String JVM = UUID.randomUUID().toString();

    private final List<RedisLock> locks;
    private final int quorum;
    private final @Nullable Duration attemptTimeout;
    /**
     * Per holder, the masters that granted each of its holds, latest last: an unlock releases
     * exactly the masters of the hold it ends (re-entries may be granted by other masters).
     */
    private final ConcurrentHashMap<String, ArrayDeque<boolean[]>> granted = new ConcurrentHashMap<>();

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
    public RedLock(@Nullable Duration attemptTimeout, List<? extends RedisLock> locks) {
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
        awaitUninterruptibly(acquire(Long.MAX_VALUE, Lease.watchdog(), threadHolder()));
    }

    @Override
    public void lock(long leaseTime, TimeUnit unit) {
        awaitUninterruptibly(acquire(Long.MAX_VALUE, lease(leaseTime, unit), threadHolder()));
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        await(acquire(Long.MAX_VALUE, Lease.watchdog(), threadHolder()));
    }

    @Override
    public boolean tryLock() {
        return awaitUninterruptibly(acquire(0, Lease.watchdog(), threadHolder()));
    }

    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        return await(acquire(unit.toMillis(time), Lease.watchdog(), threadHolder()));
    }

    @Override
    public boolean tryLock(long waitTime, long leaseTime, TimeUnit unit) throws InterruptedException {
        Lease lease = lease(leaseTime, unit);
        return await(acquire(unit.toMillis(waitTime), lease, threadHolder()));
    }

    /**
     * Releases the lock on every master that granted it. Waits for every master's answer, however
     * long, and ignores interrupts meanwhile (the thread's interrupt status is kept): each master's
     * release bounds its own wait and decides by itself whether an answer came in time, so the
     * caller is never told "no answer" while the release goes on and ends the hold (a retry would
     * then be refused as not held).
     *
     * @throws IllegalMonitorStateException if the calling thread does not hold it
     * @throws LockLostException            if fewer than a majority still had it
     * @throws LockException                if too few masters confirmed the release; the others'
     *                                      holds end with their lease (do not call unlock() again)
     */
    @Override
    public void unlock() {
        awaitUninterruptibly(unlockAsync(threadHolder()));
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

    @Override
    public CompletionStage<LockLostException> whenLost() {
        return whenLost(threadHolder());
    }

    /**
     * @return completes when fewer than a majority of the masters that granted one of the holder's
     *         holds (the outer one, or a re-entry) still have their lease (see
     *         {@link RedisLock#whenLost(String)})
     */
    @Override
    public CompletionStage<LockLostException> whenLost(String holderId) {
        Objects.requireNonNull(holderId, "holderId must not be null");
        List<CompositeLocks.LossGroup> groups = new ArrayList<>();
        granted.computeIfPresent(holderId, (holder, holds) -> {
            for (boolean[] masters : holds) {
                List<Integer> members = IntStream.range(0, masters.length).filter(i -> masters[i]).boxed().toList();
                groups.add(new CompositeLocks.LossGroup(members, members.size() - quorum + 1));
            }
            return holds;
        });
        if (groups.isEmpty()) {
            throw new IllegalMonitorStateException(getName() + " is not held by holder '" + holderId
                    + "': there is no lease whose loss to signal");
        }
        List<Supplier<CompletionStage<LockLostException>>> signals = new ArrayList<>(locks.size());
        for (int i = 0; i < locks.size(); i++) {
            RedisLock master = locks.get(i);
            boolean granting = false;
            for (CompositeLocks.LossGroup group : groups) {
                granting |= group.members().contains(i);
            }
            signals.add(granting ? () -> master.whenLost(holderId) : CompletableFuture::new);  // never for the others
        }
        return CompositeLocks.lostWhen(getName(), signals, groups);
    }

    @Override
    public boolean confirmHeld(Duration minLease) {
        return confirmHeld(threadHolder(), minLease);
    }

    /** @return whether a majority of the masters confirmed the hold with that lease left (asked all at once) */
    @Override
    public boolean confirmHeld(String holderId, Duration minLease) {
        return awaitUninterruptibly(confirmHeldAsync(holderId, minLease));
    }

    /**
     * @return completes with whether a majority of the masters confirmed the hold with that lease
     *         left; a master that fails or does not answer counts as not confirming
     */
    @Override
    public CompletableFuture<Boolean> confirmHeldAsync(String holderId, Duration minLease) {
        Objects.requireNonNull(holderId, "holderId must not be null");
        Objects.requireNonNull(minLease, "minLease must not be null");
        List<CompletableFuture<Boolean>> answers = new ArrayList<>(locks.size());
        for (RedisLock lock : locks) {
            CompletableFuture<Boolean> answer;
            try {
                answer = lock.confirmHeldAsync(holderId, minLease);
            } catch (LockException e) {
                answer = CompletableFuture.completedFuture(false);
            }
            answers.add(answer.exceptionally(error -> false));  // an unreachable master confirms nothing
        }
        return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new))
                .thenApply(all -> answers.stream().filter(CompletableFuture::join).count() >= quorum);
    }

    /** @return how many times the calling thread holds the lock (re-entries count) */
    @Override
    public int getHoldCount() {
        ArrayDeque<boolean[]> holds = granted.get(threadHolder());
        return holds == null ? 0 : holds.size();
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
        Lease lease = lease(leaseTime, unit);
        Objects.requireNonNull(holderId, "holderId must not be null");
        return acquire(unit.toMillis(waitTime), lease, holderId);
    }

    /**
     * Releases the holder's latest hold on every master that granted it (a release a master did
     * not confirm is sent once more, which is safe). A failure is final: the hold is out of this
     * RedLock's books, and calling it again is refused as not held.
     *
     * @return fails with {@link IllegalMonitorStateException} if the holder holds nothing, with
     *         {@link LockLostException} if a majority no longer had it, with {@link LockException}
     *         if too few masters confirmed (the rest end with their lease)
     */
    @Override
    public CompletableFuture<Void> unlockAsync(String holderId) {
        Objects.requireNonNull(holderId, "holderId must not be null");
        boolean[][] popped = new boolean[1][];
        granted.computeIfPresent(holderId, (holder, holds) -> {
            popped[0] = holds.pollLast();
            return holds.isEmpty() ? null : holds;
        });
        boolean[] held = popped[0];
        if (held == null) {
            return CompletableFuture.failedFuture(notHeldBy(holderId));
        }
        return askMasters(held, lock -> unlockRetryingOnce(lock, holderId)).thenCompose(replies -> {
            if (replies.confirmed() >= quorum) {
                return CompletableFuture.completedFuture(null);
            }
            return CompletableFuture.failedFuture(replies.failure(replies.mostLost()
                    ? new LockLostException(getName(), "Only " + replies.confirmed() + " of " + locks.size()
                    + " masters still held " + getName() + " at unlock (a majority is " + quorum
                    + "): another holder may have had it meanwhile")
                    : new LockException("Only " + replies.confirmed() + " of " + locks.size() + " masters confirmed "
                    + "the release of " + getName() + "; the others' holds end with their lease")));
        });
    }

    /**
     * Gives the holder's latest hold, acquired with the watchdog, an explicit lease from now on
     * every master that granted it; it counts once a majority set it with lease left, as an
     * acquisition with that lease would (validity: lease − time spent − clock drift allowance).
     * With the watchdog's lease, a majority of masters must confirm the hold still there.
     */
    CompletableFuture<Void> leaseFromNow(String holderId, Lease lease, long acquiringSinceNanos) {
        Objects.requireNonNull(holderId, "holderId must not be null");
        boolean[][] latest = new boolean[1][];
        granted.computeIfPresent(holderId, (holder, holds) -> {
            latest[0] = holds.peekLast();
            return holds;
        });
        if (latest[0] == null) {
            return CompletableFuture.failedFuture(notHeldBy(holderId));
        }
        long start = System.nanoTime();
        return askMasters(latest[0], lock -> CompositeLocks.leaseFromNow(lock, lease,
                master -> master.leaseFromNow(holderId, lease, acquiringSinceNanos))).thenCompose(replies -> {
            long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            if (replies.confirmed() >= quorum && valid(lease, elapsedMillis)) {
                return CompletableFuture.completedFuture(null);
            }
            return CompletableFuture.failedFuture(replies.failure(replies.mostLost()
                    ? new LockLostException(getName(), "Only " + replies.confirmed() + " of " + locks.size()
                    + " masters still held " + getName() + " when all locks of its composite were held (a majority is " + quorum
                    + "): another holder may have had it meanwhile")
                    : new LockException("Only " + replies.confirmed() + " of " + locks.size() + " masters set the "
                    + "lease of " + getName() + " in time (a majority is " + quorum + ")")));
        });
    }

    /** {@link #leaseFromNow(String, Lease, long)} for the calling thread's holds. */
    CompletableFuture<Void> leaseFromNow(Lease lease, long acquiringSinceNanos) {
        return leaseFromNow(threadHolder(), lease, acquiringSinceNanos);
    }

    /**
     * How a composite around this one gives it its lease (see {@link CompositeLocks#settable}):
     * not part of the API, so this lock's public type implements no engine interface.
     */
    final SettableLease leases = new SettableLease() {
        @Override
        public CompletableFuture<Void> leaseFromNow(String holderId, Lease lease, long acquiringSinceNanos) {
            return RedLock.this.leaseFromNow(holderId, lease, acquiringSinceNanos);
        }

        @Override
        public CompletableFuture<Void> leaseFromNow(Lease lease, long acquiringSinceNanos) {
            return RedLock.this.leaseFromNow(lease, acquiringSinceNanos);
        }
    };

    @Override
    public String toString() {
        return getName();
    }

    private CompletableFuture<Boolean> acquire(long waitMillis, Lease lease, String holderId) {
        Round round = new Round(deadline(waitMillis), lease, holderId);
        round.run();
        return round.outcome;
    }

    /** Successive attempts on all masters until a majority grants the lock or the wait ends. */
    private final class Round {

        final CompletableFuture<Boolean> outcome = new CompletableFuture<>();
        private final long deadline;
        private final Lease lease;
        private final String holderId;

        Round(long deadline, Lease lease, String holderId) {
            this.deadline = deadline;
            this.lease = lease;
            this.holderId = holderId;
        }

        void run() {
            if (outcome.isDone()) {
                return;  // ended by the caller: no further round
            }
            long start = System.nanoTime();
            long timeout = attemptTimeoutMillis(lease);
            List<CompletableFuture<Boolean>> attempts = new ArrayList<>(locks.size());
            for (RedisLock lock : locks) {
                CompletableFuture<Boolean> attempt;
                try {
                    attempt = lock.tryLockAsync(0, lease.asLeaseTime(), TimeUnit.MILLISECONDS, holderId);
                } catch (RuntimeException e) {
                    attempt = CompletableFuture.failedFuture(e);
                }
                // Cutting an attempt off cancels it: the component gives back a late grant.
                attempts.add(attempt.orTimeout(timeout, TimeUnit.MILLISECONDS));
            }
            // Async: an attempt cut off by orTimeout completes on the JDK's one delay-scheduler
            // thread, which must never run the caller's continuations of the outcome.
            CompletableFuture.allOf(attempts.stream().map(a -> a.handle((ok, error) -> null))
                    .toArray(CompletableFuture[]::new)).thenRunAsync(() -> decide(attempts, start));
        }

        private void decide(List<CompletableFuture<Boolean>> attempts, long start) {
            boolean[] held = new boolean[locks.size()];
            int grants = 0;
            for (int i = 0; i < attempts.size(); i++) {
                held[i] = attempts.get(i).isDone() && !attempts.get(i).isCompletedExceptionally()
                        && attempts.get(i).join();
                grants += held[i] ? 1 : 0;
            }
            List<Throwable> notConnected = attempts.stream().filter(CompletableFuture::isCompletedExceptionally)
                    .map(attempt -> attempt.handle((ok, error) -> unwrap(error)).join())
                    .filter(NotConnectedException::sentNothing).toList();
            if (notConnected.size() > locks.size() - quorum) {
                // No majority can answer until the clients (re)connect: fail now, as a lock of one does.
                LockException failure = new LockException("Could not acquire " + getName() + ": "
                        + notConnected.size() + " of " + locks.size() + " masters are not connected, so no "
                        + "majority (" + quorum + ") can grant it");
                notConnected.forEach(failure::addSuppressed);
                releaseAll(held).whenComplete((ok, error) -> outcome.completeExceptionally(failure));
                return;
            }
            long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            boolean valid = valid(lease, elapsedMillis);
            if (grants >= quorum && valid && !outcome.isDone()) {
                record(held);
                if (outcome.complete(true)) {
                    return;
                }
                unrecord(held); // ended by the caller meanwhile: give back below
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

        private void record(boolean[] held) {
            granted.compute(holderId, (holder, holds) -> {
                ArrayDeque<boolean[]> next = holds == null ? new ArrayDeque<>() : holds;
                next.addLast(held);
                return next;
            });
        }

        private void unrecord(boolean[] held) {
            granted.computeIfPresent(holderId, (holder, holds) -> {
                holds.removeLastOccurrence(held);
                return holds.isEmpty() ? null : holds;
            });
        }

        private CompletableFuture<Void> releaseAll(boolean[] held) {
            List<CompletableFuture<Void>> releases = new ArrayList<>();
            for (int i = 0; i < held.length; i++) {
                if (held[i]) {
                    releases.add(unlockRetryingOnce(locks.get(i), holderId).handle((ok, error) -> null));
                }
            }
            return CompletableFuture.allOf(releases.toArray(CompletableFuture[]::new));
        }
    }

    /**
     * What the masters of one hold answered to one request.
     *
     * @param confirmed how many did it
     * @param mostLost  whether so many no longer had the hold that no majority can have it
     * @param failures  why the others did not
     */
    private record Replies(int confirmed, boolean mostLost, List<Throwable> failures) {

        /** @return the failure, with each master's suppressed in it */
        RuntimeException failure(RuntimeException failure) {
            failures.forEach(failure::addSuppressed);
            return failure;
        }
    }

    /** Sends one request to every master that granted a hold, and tallies their answers. */
    private CompletableFuture<Replies> askMasters(boolean[] held,
                                                  Function<RedisLock, CompletableFuture<Void>> request) {
        AtomicInteger confirmed = new AtomicInteger();
        AtomicInteger lost = new AtomicInteger();
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        List<CompletableFuture<Void>> answers = new ArrayList<>();
        for (int i = 0; i < locks.size(); i++) {
            if (held[i]) {
                answers.add(request.apply(locks.get(i)).handle((ok, error) -> {
                    if (error == null) {
                        confirmed.incrementAndGet();
                    } else {
                        Throwable cause = unwrap(error);
                        if (cause instanceof IllegalMonitorStateException) {
                            lost.incrementAndGet();
                        }
                        failures.add(cause);
                    }
                    return null;
                }));
            }
        }
        return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).thenApply(ignored ->
                new Replies(confirmed.get(), lost.get() > locks.size() - quorum, List.copyOf(failures)));
    }

    /**
     * @return whether a hold with this lease, taken in this time, has lease left after the clock
     *         drift allowance; always for the watchdog's, which is renewed
     */
    private static boolean valid(Lease lease, long elapsedMillis) {
        return lease.isWatchdog() || lease.millis() - elapsedMillis - driftAllowanceMillis(lease.millis()) > 0;
    }

    /** @return how much of a lease the clocks of the masters may disagree on: 1% plus 2 ms */
    private static long driftAllowanceMillis(long leaseMillis) {
        return leaseMillis / 100 + 2;
    }

    /**
     * @throws IllegalArgumentException if the lease is not longer than its clock drift allowance:
     *                                  no acquisition could ever be valid
     */
    private static Lease lease(long leaseTime, TimeUnit unit) {
        Lease lease = Lease.of(leaseTime, unit);
        if (!lease.isWatchdog() && lease.millis() <= driftAllowanceMillis(lease.millis())) {
            throw new IllegalArgumentException("A RedLock's lease must be longer than its clock drift allowance of "
                    + driftAllowanceMillis(lease.millis()) + " ms, but was " + leaseTime + " " + unit
                    + "; use a lease of many round trips to the masters, or none (watchdog)");
        }
        return lease;
    }

    private IllegalMonitorStateException notHeldBy(String holderId) {
        return new IllegalMonitorStateException(getName() + " is not held by "
                + (holderId.equals(threadHolder()) ? "the current thread" : "holder '" + holderId + "'"));
    }

    private long attemptTimeoutMillis(Lease lease) {
        if (attemptTimeout != null) {
            return attemptTimeout.toMillis();
        }
        long cap = DEFAULT_ATTEMPT_TIMEOUT.toMillis();
        return lease.isWatchdog() ? cap : Math.max(1, Math.min(cap, lease.millis() / 10));
    }

    private boolean await(CompletableFuture<Boolean> acquiring) throws InterruptedException {
        String holder = threadHolder();
        try {
            return acquiring.get();
        } catch (InterruptedException e) {
            acquiring.cancel(false);
            acquiring.thenAccept(acquired -> {
                if (acquired) {
                    unlockAsync(holder);  // acquired just as we gave up: give it back
                }
            });
            throw e;
        } catch (ExecutionException e) {
            throw unchecked(e);
        }
    }

    private String threadHolder() {
        return JVM + ":" + Thread.currentThread().getId();
    }

    private static boolean quietly(BooleanSupplier check) {
        try {
            return check.getAsBoolean();
        } catch (LockException e) {
            return false; // an unreachable master counts as not granting
        }
    }
}

package io.distlock.spring;

import io.distlock.core.LockAcquisitionException;
import io.distlock.core.LockClient;
import io.distlock.core.LockException;
import io.distlock.core.RedisLock;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The locks of one call of a {@link DistributedLock} method, all under one holder id: acquired
 * in their (sorted) order within one wait time, all or nothing, and released in reverse order.
 * The async forms never block, so they serve Reactor and futures; the blocking forms wait on
 * them with a limit, so a lost answer cannot hang a thread.
 */
final class LockedCall {

    private static final AtomicLong OPERATIONS = new AtomicLong();

    private final LockedMethod method;
    private final LockClient client;
    private final List<RedisLock> locks;
    private final String holderId;
    private final AtomicReference<CompletableFuture<Void>> release = new AtomicReference<>();

    /**
     * @param method   what the annotation asks for
     * @param client   the lock client
     * @param names    lock names, sorted
     * @param holderId who holds them
     */
    LockedCall(LockedMethod method, LockClient client, List<String> names, String holderId) {
        this.method = method;
        this.client = client;
        this.locks = names.stream().map(name -> client.getLock(name, method.name())).toList();
        this.holderId = holderId;
    }

    /**
     * @param client a lock client
     * @return a holder id used by nothing else: for work that outlives the calling thread's call
     */
    static String newOperationHolder(LockClient client) {
        return client.clientId() + ":op-" + OPERATIONS.incrementAndGet();
    }

    /** @return the same locks for a holder of their own (e.g. a new subscription of a reactive result) */
    LockedCall forNewOperation() {
        return new LockedCall(method, client, locks.stream().map(RedisLock::getName).toList(),
                newOperationHolder(client));
    }

    /** @return what the annotation asks for */
    LockedMethod method() {
        return method;
    }

    /** @return the context the method body sees */
    LockContext context() {
        return new LockContext(method.name(), locks, holderId);
    }

    /**
     * Acquires every lock, waiting on the calling thread.
     *
     * @return {@code true} if all are held, {@code false} if the wait time passed (none held then)
     * @throws LockAcquisitionException if interrupted (the interrupt status is kept)
     * @throws LockException            if Redis failed
     */
    boolean acquire() {
        CompletableFuture<Boolean> acquiring = acquireAsync();
        try {
            return acquiring.get(method.waitTime().toMillis() + answerLimitMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            abandon(acquiring);
            Thread.currentThread().interrupt();
            throw new LockAcquisitionException("Interrupted while waiting for " + describe(), e);
        } catch (TimeoutException e) {
            abandon(acquiring);
            throw new LockException("No answer from Redis while acquiring " + describe()
                    + "; check that Redis is running and reachable");
        } catch (ExecutionException e) {
            throw unchecked(e.getCause());
        }
    }

    /**
     * Acquires every lock without blocking. Cancelling the future gives back what was taken.
     *
     * @return {@code true} once all are held, {@code false} if the wait time passed (none held)
     */
    CompletableFuture<Boolean> acquireAsync() {
        Acquiring acquiring = new Acquiring(System.nanoTime() + method.waitTime().toNanos());
        acquiring.next(0);
        return acquiring.outcome;
    }

    /**
     * The caller is done with {@link #acquireAsync()}, whatever happened: cancels it if still
     * running, or, if it acquired everything, releases the locks (a no-op if already released).
     *
     * @param acquiring what {@link #acquireAsync()} returned
     */
    void abandon(CompletableFuture<Boolean> acquiring) {
        acquiring.cancel(false);
        acquiring.thenAccept(acquired -> {
            if (acquired) {
                releaseAsync();
            }
        });
    }

    /**
     * Releases every lock, waiting on the calling thread.
     *
     * @throws RuntimeException the first release failure ({@link io.distlock.core.LockLostException}
     *                          if a lease was lost), later ones suppressed in it
     */
    void release() {
        try {
            releaseAsync().get(answerLimitMillis() * locks.size(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LockException("Interrupted while releasing " + describe()
                    + "; they are released when their lease ends", e);
        } catch (TimeoutException e) {
            throw new LockException("No answer from Redis while releasing " + describe()
                    + "; they are released when their lease ends");
        } catch (ExecutionException e) {
            throw unchecked(e.getCause());
        }
    }

    /**
     * Releases every lock after the method ended; a release failure never hides the method's own.
     *
     * @param methodFailure what the method threw, or {@code null} if it returned
     * @throws RuntimeException the release failure, if the method returned normally
     */
    void releaseAfter(Throwable methodFailure) {
        try {
            release();
        } catch (RuntimeException e) {
            if (methodFailure == null) {
                throw e;
            }
            methodFailure.addSuppressed(e);
        }
    }

    /**
     * Releases every lock, once: later calls return the first call's future, so every path that
     * may end the call (completion, error, cancel, a dropped value) can simply ask for it.
     *
     * @return completes once every lock was released, failing with the first release failure
     */
    CompletableFuture<Void> releaseAsync() {
        CompletableFuture<Void> mine = new CompletableFuture<>();
        if (!release.compareAndSet(null, mine)) {
            return release.get();
        }
        releaseFirst(locks.size()).whenComplete((ok, error) -> {
            if (error != null) {
                mine.completeExceptionally(error);
            } else {
                mine.complete(null);
            }
        });
        return mine;
    }

    /** @return the failure to report when the locks were not acquired in time */
    LockAcquisitionException notAcquired() {
        return new LockAcquisitionException("Could not acquire " + describe() + " within "
                + method.waitTime().toMillis() + " ms: another holder has it");
    }

    /** Releases locks {@code count-1 .. 0}, every one even if some fail. */
    private CompletableFuture<Void> releaseFirst(int count) {
        CompletableFuture<Void> chain = CompletableFuture.completedFuture(null);
        Throwable[] first = new Throwable[1];
        for (int i = count - 1; i >= 0; i--) {
            RedisLock lock = locks.get(i);
            chain = chain.thenCompose(ignored -> unlockRetryingOnce(lock).handle((ok, error) -> {
                if (error != null) {
                    Throwable cause = unwrap(error);
                    if (first[0] == null) {
                        first[0] = cause;
                    } else {
                        first[0].addSuppressed(cause);
                    }
                }
                return null;
            }));
        }
        return chain.thenCompose(ignored -> first[0] == null ? CompletableFuture.<Void>completedFuture(null)
                : CompletableFuture.<Void>failedFuture(first[0]));
    }

    /**
     * Releases one lock; an unconfirmed release (Redis failed to answer) is sent once more, which
     * the engine makes safe: it never releases twice.
     */
    private CompletableFuture<Void> unlockRetryingOnce(RedisLock lock) {
        return unlock(lock).exceptionallyCompose(error -> isUnconfirmed(unwrap(error)) ? unlock(lock)
                : CompletableFuture.failedFuture(error));
    }

    private CompletableFuture<Void> unlock(RedisLock lock) {
        try {
            return lock.unlockAsync(holderId);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e); // e.g. the client was closed
        }
    }

    private static boolean isUnconfirmed(Throwable error) {
        return error instanceof LockException;
    }

    private long answerLimitMillis() {
        return 2 * client.commandTimeout().toMillis() + 1000;
    }

    private String describe() {
        return (locks.size() == 1 ? "lock '" + locks.get(0).getName() + "'"
                : "locks " + locks.stream().map(RedisLock::getName).toList()) + " (@DistributedLock " + method.name() + ")";
    }

    @Override
    public String toString() {
        return describe() + " held by " + holderId;
    }

    private static Throwable unwrap(Throwable error) {
        return error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    }

    private static RuntimeException unchecked(Throwable error) {
        Throwable cause = unwrap(error);
        return cause instanceof RuntimeException runtime ? runtime
                : new LockException("Lock operation failed: " + cause, cause);
    }

    /** One run of acquiring the locks in order; the outcome may be cancelled by the caller at any time. */
    private final class Acquiring {

        final CompletableFuture<Boolean> outcome = new CompletableFuture<>();
        private final long deadlineNanos;
        private volatile CompletableFuture<Boolean> step;

        Acquiring(long deadlineNanos) {
            this.deadlineNanos = deadlineNanos;
            outcome.whenComplete((ok, error) -> {
                CompletableFuture<Boolean> current = step;
                if (outcome.isCancelled() && current != null) {
                    current.cancel(false); // the engine gives back a hold that still arrives
                }
            });
        }

        /** Locks {@code 0 .. index-1} are held; takes the next one, or finishes. */
        void next(int index) {
            if (outcome.isDone()) {
                releaseFirst(index); // cancelled meanwhile
                return;
            }
            if (index == locks.size()) {
                if (!outcome.complete(true)) {
                    releaseFirst(index);
                }
                return;
            }
            long remainingMillis = Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime()));
            long leaseMillis = method.leaseTime() == null ? 0 : method.leaseTime().toMillis();
            CompletableFuture<Boolean> attempt;
            try {
                attempt = locks.get(index).tryLockAsync(remainingMillis, leaseMillis, TimeUnit.MILLISECONDS, holderId);
            } catch (RuntimeException e) {
                // e.g. the client was closed meanwhile: nothing was sent for this lock
                releaseFirst(index).whenComplete((ok, ignored) -> outcome.completeExceptionally(e));
                return;
            }
            step = attempt;
            if (outcome.isCancelled()) {
                attempt.cancel(false);
            }
            attempt.whenComplete((acquired, error) -> {
                if (error != null) {
                    releaseFirst(index).whenComplete((ok, ignored) -> outcome.completeExceptionally(unwrap(error)));
                } else if (!acquired) {
                    releaseFirst(index).whenComplete((ok, ignored) -> outcome.complete(false));
                } else {
                    next(index + 1);
                }
            });
        }
    }
}

package io.distlock.spring.aop;

import io.distlock.core.LockAcquisitionException;
import io.distlock.core.LockClient;
import io.distlock.core.LockException;
import io.distlock.core.LockLostException;
import io.distlock.core.MultiLock;
import io.distlock.core.RedisLock;
import io.distlock.spring.DistributedLock;
import io.distlock.spring.LockContext;
import io.distlock.spring.OnLost;
import io.distlock.spring.internal.CancelledCalls;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The locks of one call of a {@link DistributedLock} method, all under one holder id, as one
 * {@link MultiLock}: acquired in their (sorted) order within one wait time, all or nothing, and
 * released in reverse order, once. The async forms never block, so they serve Reactor and
 * futures; the blocking acquisition waits on them with a limit, so a lost answer cannot hang a
 * thread. The blocking release waits for the release's own decision, with no limit of its own:
 * each Redis call of a release is bounded by the client's command timeout, and only that decides
 * that an answer did not come (a caller told "no answer" while the release was still in flight
 * would be told wrongly that the locks end with their lease).
 */
final class LockedCall {

    private static final AtomicLong OPERATIONS = new AtomicLong();

    private final LockedMethod method;
    private final LockClient client;
    private final List<RedisLock> locks;
    private final MultiLock all;
    private final String holderId;
    private final CancelledCalls cancellations;
    private final AtomicReference<CompletableFuture<Void>> release = new AtomicReference<>();
    /** The call's loss signal, asked for once ({@link #whenLost()}). */
    private final AtomicReference<CompletionStage<LockLostException>> lossSignal = new AtomicReference<>();
    /** When the method started ({@link System#nanoTime()}), for the minimum hold time. */
    private volatile long startedNanos;

    /**
     * @param method   what the annotation asks for
     * @param client   the lock client
     * @param locks    the locks, in acquisition (sorted) order
     * @param holderId      who holds them
     * @param cancellations counts the calls stopped because their lease was lost
     */
    LockedCall(LockedMethod method, LockClient client, List<RedisLock> locks, String holderId,
               CancelledCalls cancellations) {
        this.method = method;
        this.client = client;
        this.locks = List.copyOf(locks);
        this.all = new MultiLock(locks);
        this.holderId = holderId;
        this.cancellations = cancellations;
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
        return new LockedCall(method, client, locks, newOperationHolder(client), cancellations);
    }

    /** @return what the annotation asks for */
    LockedMethod method() {
        return method;
    }

    /**
     * The locks are held and the method is about to run: the minimum hold time counts from now.
     *
     * @return the context the method body sees
     */
    LockContext startMethod() {
        startedNanos = System.nanoTime();
        return new HeldLockContext(method.name(), locks, all, holderId, this::whenLost);
    }

    /**
     * @return whether the method is to be stopped when its lease is lost
     *         ({@link io.distlock.spring.OnLost#CANCEL})
     */
    boolean cancelsOnLoss() {
        return method.onLost() == OnLost.CANCEL;
    }

    /**
     * @return completes when a lease of the held locks is lost (see
     *         {@link RedisLock#whenLost(String)}): one signal per call, asked for the first time
     *         while the locks are held
     * @throws IllegalMonitorStateException if asked for the first time when they are not held
     */
    CompletionStage<LockLostException> whenLost() {
        CompletionStage<LockLostException> signal = lossSignal.get();
        if (signal == null) {
            CompletionStage<LockLostException> mine = all.whenLost(holderId);
            signal = lossSignal.compareAndSet(null, mine) ? mine : Objects.requireNonNull(lossSignal.get());
        }
        return signal;
    }

    /** The call ended: it no longer listens for a loss (the signal then fails with a cancellation). */
    private void stopListening() {
        CompletionStage<LockLostException> signal = lossSignal.get();
        if (signal != null) {
            signal.toCompletableFuture().cancel(false);
        }
    }

    /** @return the loss, if the call's signal was asked for and has come; else {@code null} */
    @Nullable LockLostException lossSoFar() {
        CompletionStage<LockLostException> signal = lossSignal.get();
        CompletableFuture<LockLostException> lost = signal == null ? null : signal.toCompletableFuture();
        return lost != null && lost.isDone() ? lost.join() : null;
    }

    /**
     * @param lost the loss that stops the method
     * @return what the call ends with: the loss, saying which method was stopped
     */
    LockLostException stoppedBy(LockLostException lost) {
        LockLostException stopped = new LockLostException(lost.getLockName(), lost.getMessage()
                + "; the method was stopped (@DistributedLock " + method.name() + ", onLost = CANCEL)");
        stopped.initCause(lost);
        return stopped;
    }

    /** The method was stopped because its lease was lost, and the call ends so: counted once. */
    void countCancelled() {
        cancellations.cancelled(method.name(), method.type());
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
            throw new LockAcquisitionException("Interrupted while waiting for " + describe(), method.name(), e);
        } catch (TimeoutException e) {
            abandon(acquiring);
            throw new LockException("No answer from Redis while acquiring " + describe()
                    + "; check that Redis is running and reachable");
        } catch (ExecutionException e) {
            throw unchecked(Objects.requireNonNull(e.getCause()));
        }
    }

    /**
     * Acquires every lock without blocking. Cancelling the future gives back what was taken.
     *
     * @return {@code true} once all are held, {@code false} if the wait time passed (none held)
     */
    CompletableFuture<Boolean> acquireAsync() {
        // In nanoseconds, saturated: a lease under a millisecond stays a lease, not zero (the watchdog).
        long lease = method.leaseTime() == null ? 0 : TimeUnit.NANOSECONDS.convert(method.leaseTime());
        return all.tryLockAsync(TimeUnit.NANOSECONDS.convert(method.waitTime()), lease, TimeUnit.NANOSECONDS,
                holderId);
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
     * Releases every lock, waiting on the calling thread until the release decided, however long
     * that takes (its Redis calls bound themselves). Interrupts do not stop the wait, so a method
     * that returns with its thread's interrupt status set still releases; the status is kept.
     *
     * @throws RuntimeException the first release failure ({@link io.distlock.core.LockLostException}
     *                          if a lease was lost, {@link LockException} if Redis did not confirm
     *                          a release: that lock ends with its lease), later ones suppressed in it
     */
    void release() {
        CompletableFuture<Void> releasing = releaseAsync();
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    releasing.get();
                    return;
                } catch (InterruptedException e) {
                    interrupted = true;  // keep waiting for the same decision
                } catch (ExecutionException e) {
                    throw unchecked(Objects.requireNonNull(e.getCause()));
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Releases every lock after the method ended; a release failure never hides the method's own.
     *
     * @param methodFailure what the method threw, or {@code null} if it returned
     * @throws RuntimeException the release failure, if the method returned normally
     */
    void releaseAfter(@Nullable Throwable methodFailure) {
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
     * may end the call (completion, error, cancel, a dropped value) can simply ask for it. With a
     * minimum hold time not yet over, the locks stay taken, by nobody, for the rest of it.
     *
     * @return completes once every lock was released, failing with the first release failure
     */
    CompletableFuture<Void> releaseAsync() {
        CompletableFuture<Void> mine = new CompletableFuture<>();
        CompletableFuture<Void> first = release.compareAndExchange(null, mine);
        if (first != null) {
            return first;
        }
        stopListening();  // the call is over
        Duration keep = method.minHoldTime() == null ? Duration.ZERO
                : method.minHoldTime().minusNanos(System.nanoTime() - startedNanos);
        CompletableFuture<Void> released = keep.isNegative() || keep.isZero() ? all.unlockAsync(holderId)
                : all.unlockKeepingAsync(holderId, keep);
        released.whenComplete((ok, error) -> {
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
                + method.waitTime().toMillis() + " ms: another holder has it", method.name());
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

    /**
     * @param error what a future failed with
     * @return its cause if it is a {@link CompletionException} wrapper, else the error itself
     */
    static Throwable unwrap(Throwable error) {
        return error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    }

    private static RuntimeException unchecked(Throwable error) {
        Throwable cause = unwrap(error);
        return cause instanceof RuntimeException runtime ? runtime
                : new LockException("Lock operation failed: " + cause, cause);
    }
}

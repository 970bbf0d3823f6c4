package io.distlock.core;

import io.distlock.core.internal.engine.RedisFailures;
import io.distlock.core.internal.engine.Lease;
import io.distlock.core.internal.engine.RetrySafeRelease;
import io.distlock.core.internal.engine.SettableLease;
import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What the locks made of other locks ({@link MultiLock}, {@link RedLock}) share: releasing a
 * component with one retry when Redis did not confirm it, if its release is safe to send again
 * ({@link RetrySafeRelease}; a composite component decided for its own components and is not retried),
 * giving a component its explicit lease once all are held, wait deadlines that cannot overflow,
 * and waiting for answers.
 */
final class CompositeLocks {

    private CompositeLocks() {
    }

    /**
     * @param lock     a component
     * @param holderId its holder
     * @return completes when the component confirmed the release; a {@link LockException} (no
     *         answer) is retried once if the component is a {@link RetrySafeRelease}
     */
    static CompletableFuture<Void> unlockRetryingOnce(RedisLock lock, String holderId) {
        return releaseRetryingOnce(lock, component -> component.unlockAsync(holderId));
    }

    /**
     * @param lock    a component
     * @param release the release call, on the component
     * @return completes when the component confirmed the release; a {@link LockException} (no
     *         answer) is retried once if the component is a {@link RetrySafeRelease}
     */
    static CompletableFuture<Void> releaseRetryingOnce(RedisLock lock,
                                                       Function<RedisLock, CompletableFuture<Void>> release) {
        CompletableFuture<Void> first = releaseOnce(lock, release);
        return !(lock instanceof RetrySafeRelease) ? first
                : first.exceptionallyCompose(error -> unwrap(error) instanceof LockException
                        ? releaseOnce(lock, release) : CompletableFuture.failedFuture(error));
    }

    /**
     * Releases a component held by the calling thread; a {@link LockException} is retried once if
     * the component is a {@link RetrySafeRelease}, else thrown as it is.
     *
     * @param lock a component
     * @throws LockException if Redis confirmed neither attempt (the hold ends with its lease), or
     *                       what a composite component decided
     */
    static void unlockRetryingOnce(RedisLock lock) {
        if (!(lock instanceof RetrySafeRelease)) {
            lock.unlock();
            return;
        }
        try {
            lock.unlock();
        } catch (LockException unconfirmed) {
            try {
                lock.unlock();
            } catch (LockException again) {
                again.addSuppressed(unconfirmed);
                throw new LockException("Redis did not confirm the release of " + lock.getName() + " of a composite "
                        + "lock; it ends with its lease (do not call unlock() on the composite lock again)", again);
            }
        }
    }

    /**
     * Gives a component, acquired with the watchdog, its explicit lease from now; or without a
     * lease confirms it still held (see {@link SettableLease}).
     *
     * @param lock     a component
     * @param lease    the lease the call gives, the watchdog's to confirm the hold
     * @param setLease the call, on the component
     * @return what the component answered; for a component that cannot be asked (not a
     *         {@link SettableLease}): done at once when only confirming (it is taken as it is),
     *         failed with {@link UnsupportedOperationException} for a lease
     */
    static CompletableFuture<Void> leaseFromNow(RedisLock lock, Lease lease,
                                                Function<SettableLease, CompletableFuture<Void>> setLease) {
        SettableLease settable = settable(lock);
        if (settable == null) {
            return lease.isWatchdog() ? CompletableFuture.completedFuture(null)
                    : CompletableFuture.failedFuture(notSettable(lock));
        }
        try {
            return setLease.apply(settable);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e); // e.g. its client was closed
        }
    }

    /**
     * @param locks components to be given an explicit lease once all are held
     * @throws UnsupportedOperationException if one cannot take a lease once held
     */
    static void requireSettableLeases(List<RedisLock> locks) {
        for (RedisLock lock : locks) {
            if (settable(lock) == null) {
                throw notSettable(lock);
            }
        }
    }

    /**
     * @param lock a component
     * @return how to give it its lease: the engine's locks take it themselves, the composites
     *         through a view of theirs (so that their public types implement no engine interface);
     *         {@code null} for any other lock (e.g. an application's own)
     */
    static @Nullable SettableLease settable(RedisLock lock) {
        if (lock instanceof SettableLease engineLock) {
            return engineLock;
        }
        if (lock instanceof MultiLock multi) {
            return multi.leases;
        }
        return lock instanceof RedLock red ? red.leases : null;
    }

    private static UnsupportedOperationException notSettable(RedisLock lock) {
        return new UnsupportedOperationException("A lease time needs components that can take their lease once all "
                + "are held (locks of a LockClient, MultiLock, RedLock), but " + lock + " is a "
                + lock.getClass().getName() + "; acquire without lease time (watchdog) instead");
    }

    /**
     * @param futures what to wait for
     * @return completes when all did; fails with the first failure in list order, later ones suppressed
     */
    static CompletableFuture<Void> allOrFirstFailure(List<CompletableFuture<Void>> futures) {
        Throwable[] first = new Throwable[1];
        CompletableFuture<Void> all = CompletableFuture.completedFuture(null);
        for (CompletableFuture<Void> future : futures) {
            CompletableFuture<Throwable> failure = future.handle((ok, error) -> error == null ? null : unwrap(error));
            all = all.thenCombine(failure, (ignored, error) -> {
                if (first[0] == null) {
                    first[0] = error;
                } else if (error != null && error != first[0]) {
                    first[0].addSuppressed(error);
                }
                return null;
            });
        }
        return all.thenCompose(ignored -> first[0] == null ? CompletableFuture.completedFuture(null)
                : CompletableFuture.failedFuture(first[0]));
    }

    /**
     * Waits for an answer, ignoring interrupts until it came; the thread's interrupt status is kept.
     * For futures that always complete (the components bound their own waits).
     *
     * @param answer what to wait for
     * @param <T>    its type
     * @return the answer
     * @throws RuntimeException what the future failed with (unchecked as is, else in a {@link LockException})
     */
    static <T> T awaitUninterruptibly(CompletableFuture<T> answer) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return answer.get();
                } catch (InterruptedException e) {
                    interrupted = true;  // keep waiting for the same answer
                } catch (ExecutionException e) {
                    throw unchecked(e);
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * @param error a failure of a future
     * @return it unwrapped, as an unchecked exception
     */
    static RuntimeException unchecked(Throwable error) {
        Throwable cause = unwrap(error);
        return cause instanceof RuntimeException runtime ? runtime : new LockException(cause.toString(), cause);
    }

    /**
     * @param waitMillis how long to wait; {@code Long.MAX_VALUE} or more than the clock allows:
     *                   without limit
     * @return the {@link System#nanoTime()} deadline, {@code Long.MAX_VALUE} for none
     */
    static long deadline(long waitMillis) {
        long now = System.nanoTime();
        long waitNanos = TimeUnit.MILLISECONDS.toNanos(Math.max(0, waitMillis));
        return waitNanos >= Long.MAX_VALUE - now ? Long.MAX_VALUE : now + waitNanos;
    }

    /**
     * @param deadline from {@link #deadline(long)}
     * @return milliseconds left, at least 0; {@code Long.MAX_VALUE} without limit
     */
    static long remainingMillis(long deadline) {
        return deadline == Long.MAX_VALUE ? Long.MAX_VALUE
                : Math.max(0, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
    }

    /**
     * Components that the composite cannot lose together and stay held.
     *
     * @param members indexes of the components
     * @param losses  how many of them lost make the composite lost (at least 1)
     */
    record LossGroup(List<Integer> members, int losses) {
    }

    /**
     * The loss signal of a composite lock, made of its components' signals: lost once any group
     * lost as many components as it can bear (a {@link MultiLock}: one group of all, any one lost;
     * a {@link RedLock}: per hold, the masters that granted it, one more than it can lose and keep a
     * majority). Each component is counted once per group, whatever else it is in.
     *
     * @param name    the composite's name, for the message
     * @param signals per component, asks for its signal; a component that throws
     *                {@link IllegalMonitorStateException} holds nothing any more and counts as lost
     * @param groups  the groups
     * @return completes with the loss that made the composite lost
     * @throws IllegalMonitorStateException if no component holds anything: the composite is not held
     */
    static CompletionStage<LockLostException> lostWhen(String name,
                                                       List<Supplier<CompletionStage<LockLostException>>> signals,
                                                       List<LossGroup> groups) {
        List<CompletionStage<LockLostException>> stages = new ArrayList<>(signals.size());
        IllegalMonitorStateException notHeld = null;
        int notHeldCount = 0;
        for (Supplier<CompletionStage<LockLostException>> signal : signals) {
            try {
                stages.add(signal.get());
            } catch (IllegalMonitorStateException e) {
                notHeld = e;
                notHeldCount++;
                stages.add(CompletableFuture.completedFuture(new LockLostException(name, String.valueOf(e.getMessage()))));
            }
        }
        if (notHeld != null && notHeldCount == signals.size()) {
            throw notHeld;
        }
        CompletableFuture<LockLostException> lost = new CompletableFuture<>();
        // Once lost, or cancelled by its caller, the composite stops listening to its components.
        lost.whenComplete((loss, cancelled) -> stages.forEach(stage -> stage.toCompletableFuture().cancel(false)));
        List<AtomicInteger> counts = groups.stream().map(group -> new AtomicInteger()).toList();
        for (int i = 0; i < stages.size(); i++) {
            int component = i;
            stages.get(i).thenAccept(loss -> {
                for (int g = 0; g < groups.size(); g++) {
                    if (groups.get(g).members().contains(component)
                            && counts.get(g).incrementAndGet() >= groups.get(g).losses()) {
                        LockLostException composite = new LockLostException(name, "The lease of " + name
                                + " was lost: " + loss.getMessage());
                        composite.initCause(loss);
                        lost.complete(composite);
                    }
                }
            });
        }
        return lost;
    }

    static Throwable unwrap(Throwable error) {
        return RedisFailures.unwrap(error);
    }

    private static CompletableFuture<Void> releaseOnce(RedisLock lock,
                                                       Function<RedisLock, CompletableFuture<Void>> release) {
        try {
            return release.apply(lock);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e); // e.g. its client was closed
        }
    }
}

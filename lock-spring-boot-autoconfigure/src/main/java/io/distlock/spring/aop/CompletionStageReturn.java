package io.distlock.spring.aop;

import io.distlock.core.LockLostException;
import io.distlock.spring.LockContext;
import io.distlock.spring.OnFailure;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Methods returning {@code CompletionStage}/{@code CompletableFuture}: the locks are acquired on
 * the calling thread before the method runs and released when the returned stage completes,
 * from whichever thread completes it. The caller's stage completes after the release, on the
 * common fork-join pool in the caller's context ({@link CallerContext}), with the method's outcome
 * (or the release failure, such as a lost lease, if the method succeeded).
 * Lock failures come back as a failed stage; a skipped call returns a stage completed with null.
 * With {@code onLost = CANCEL}, a lost lease fails the caller's stage with the loss at once; the
 * locks are released when the method's own stage completes, as always.
 */
final class CompletionStageReturn implements ReturnStrategy {

    @Override
    public @Nullable Object invoke(MethodInvocation invocation, LockedCall call) throws Throwable {
        boolean acquired;
        try {
            acquired = call.acquire();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        if (!acquired) {
            return call.method().onFailure() == OnFailure.SKIP ? CompletableFuture.completedFuture(null)
                    : CompletableFuture.failedFuture(call.notAcquired());
        }
        CompletableFuture<Object> result = new CompletableFuture<>();
        // CompletableFuture's own async executor (a new thread per task where the common pool has
        // one thread, on Java 17), in the caller's context.
        Executor completer = CallerContext.capture(result.defaultExecutor());
        CompletionStage<?> stage;
        LockContext context = call.startMethod();
        CurrentLockContexts.enter(context);
        try {
            stage = (CompletionStage<?>) invocation.proceed();
        } catch (Throwable t) {
            CurrentLockContexts.exit(context);
            call.releaseAfter(t);
            throw t;
        }
        CurrentLockContexts.exit(context);
        if (stage == null) {
            call.releaseAfter(null);
            return null;
        }
        AtomicBoolean methodDone = new AtomicBoolean();
        if (call.cancelsOnLoss()) {
            failOnLoss(call, methodDone, result, completer);
        }
        // Completed asynchronously: the release answer arrives on Redis's I/O thread,
        // where the caller's callbacks must not run (a blocking one would stall all Redis I/O);
        // and in the caller's context, so they see its trace and logging context.
        stage.whenComplete((value, error) -> {
            methodDone.set(true);
            call.releaseAsync().whenCompleteAsync((ignored, releaseFailure) -> {
                if (error != null) {
                    Throwable cause = LockedCall.unwrap(error);
                    if (releaseFailure != null) {
                        cause.addSuppressed(releaseFailure);
                    }
                    result.completeExceptionally(cause);
                } else if (releaseFailure != null) {
                    result.completeExceptionally(releaseFailure);
                } else {
                    result.complete(value);
                }
            }, completer);
        });
        return result;
    }

    /**
     * {@code onLost = CANCEL}: a lost lease fails the caller's stage at once, unless the method's
     * stage completed first (then the release tells). The locks stay with the method's own
     * future, released when it completes, as always: the work it stands for may go on, and stays
     * covered for as long as the lease lasts.
     */
    private static void failOnLoss(LockedCall call, AtomicBoolean methodDone, CompletableFuture<Object> result,
                                   Executor completer) {
        CompletionStage<LockLostException> lost;
        try {
            lost = call.whenLost();
        } catch (IllegalMonitorStateException notHeld) {
            return;  // lost and forgotten already: the release reports it
        }
        lost.thenAcceptAsync(loss -> {
            if (!methodDone.get() && result.completeExceptionally(call.stoppedBy(loss))) {
                call.countCancelled();
            }
        }, completer);
    }

    @Override
    public boolean outlivesCall() {
        return true;
    }
}

package io.distlock.spring.aop;

import io.distlock.spring.LockContext;
import io.distlock.spring.OnFailure;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/**
 * Methods returning {@code CompletionStage}/{@code CompletableFuture}: the locks are acquired on
 * the calling thread before the method runs and released when the returned stage completes,
 * from whichever thread completes it. The caller's stage completes after the release, on the
 * common fork-join pool in the caller's context ({@link CallerContext}), with the method's outcome
 * (or the release failure, such as a lost lease, if the method succeeded).
 * Lock failures come back as a failed stage; a skipped call returns a stage completed with null.
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
        // Completed asynchronously: the release answer arrives on Redis's I/O thread,
        // where the caller's callbacks must not run (a blocking one would stall all Redis I/O);
        // and in the caller's context, so they see its trace and logging context.
        stage.whenComplete((value, error) -> call.releaseAsync().whenCompleteAsync((ignored, releaseFailure) -> {
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
        }, completer));
        return result;
    }

    @Override
    public boolean outlivesCall() {
        return true;
    }
}

package io.distlock.spring;

import org.aopalliance.intercept.MethodInvocation;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * Methods returning {@code CompletionStage}/{@code CompletableFuture}: the locks are acquired on
 * the calling thread before the method runs and released when the returned stage completes,
 * from whichever thread completes it. The caller's stage completes after the release, on the
 * common fork-join pool, with the method's outcome (or the release failure, such as a lost lease,
 * if the method succeeded).
 * Lock failures come back as a failed stage; a skipped call returns a stage completed with null.
 */
final class CompletionStageReturn implements ReturnStrategy {

    @Override
    public Object invoke(MethodInvocation invocation, LockedCall call) throws Throwable {
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
        CompletionStage<?> stage;
        LockContext context = call.context();
        context.enter();
        try {
            stage = (CompletionStage<?>) invocation.proceed();
        } catch (Throwable t) {
            context.exit();
            call.releaseAfter(t);
            throw t;
        }
        context.exit();
        if (stage == null) {
            call.releaseAfter(null);
            return null;
        }
        CompletableFuture<Object> result = new CompletableFuture<>();
        // Completed through the common pool: the release answer arrives on Redis's I/O thread,
        // where the caller's callbacks must not run (a blocking one would stall all Redis I/O).
        stage.whenComplete((value, error) -> call.releaseAsync().whenCompleteAsync((ignored, releaseFailure) -> {
            if (error != null) {
                Throwable cause = error instanceof CompletionException && error.getCause() != null
                        ? error.getCause() : error;
                if (releaseFailure != null) {
                    cause.addSuppressed(releaseFailure);
                }
                result.completeExceptionally(cause);
            } else if (releaseFailure != null) {
                result.completeExceptionally(releaseFailure);
            } else {
                result.complete(value);
            }
        }));
        return result;
    }

    @Override
    public boolean outlivesCall() {
        return true;
    }
}

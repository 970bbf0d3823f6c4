package io.distlock.spring.aop;

import io.distlock.spring.LockContext;
import io.distlock.spring.OnFailure;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import java.util.Optional;

/**
 * Methods with an ordinary result: the locks are held while the method runs and released when it
 * returns or throws, or, if it returns inside a transaction that is still active (it joined an
 * outer one), once that transaction has completed.
 */
final class PlainReturn implements ReturnStrategy {

    private final boolean returnsOptional;

    /** @param returnsOptional whether a skipped call returns {@code Optional.empty()} rather than null */
    PlainReturn(boolean returnsOptional) {
        this.returnsOptional = returnsOptional;
    }

    @Override
    public @Nullable Object invoke(MethodInvocation invocation, LockedCall call) throws Throwable {
        if (!call.acquire()) {
            if (call.method().onFailure() == OnFailure.SKIP) {
                return returnsOptional ? Optional.empty() : null;
            }
            throw call.notAcquired();
        }
        Throwable failure = null;
        LockContext context = call.startMethod();
        CurrentLockContexts.enter(context);
        try {
            return invocation.proceed();
        } catch (Throwable t) {
            failure = t;
            throw t;
        } finally {
            CurrentLockContexts.exit(context);
            if (!TransactionAwareRelease.deferUntilTransactionCompletes(call)) {
                call.releaseAfter(failure);
            }
        }
    }

    @Override
    public boolean outlivesCall() {
        return false;
    }
}

package io.distlock.spring.aop;

import io.distlock.core.LockLostException;
import io.distlock.spring.LockContext;
import io.distlock.spring.OnFailure;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import java.util.Optional;

/**
 * Methods with an ordinary result: the locks are held while the method runs and released when it
 * returns or throws, or, if it returns inside a transaction that is still active (it joined an
 * outer one), once that transaction has completed. With {@code onLost = CANCEL}, a lost lease
 * interrupts the thread while the method runs ({@link LossInterrupt}), and the call ends with the loss.
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
        boolean interruptedBefore = Thread.currentThread().isInterrupted();
        LossInterrupt interrupt = call.cancelsOnLoss() ? LossInterrupt.arm(call) : null;
        Object result = null;
        Throwable failure = null;
        LockContext context = call.startMethod();
        CurrentLockContexts.enter(context);
        try {
            result = invocation.proceed();
        } catch (Throwable t) {
            failure = t;
        } finally {
            CurrentLockContexts.exit(context);
        }
        LockLostException lost = interrupt == null ? null : interrupt.end();
        if (lost != null) {
            // Whatever the method did with the interrupt, the call ends with the loss, and the
            // interrupt sent for it goes no further than the method.
            LossInterrupt.clearAfterLoss(interruptedBefore);
            LockLostException stopped = call.stoppedBy(lost);
            if (failure != null) {
                stopped.addSuppressed(failure);
            }
            failure = stopped;
            call.countCancelled();
        }
        if (!TransactionAwareRelease.deferUntilTransactionCompletes(call)) {
            call.releaseAfter(failure);
        }
        if (failure != null) {
            throw failure;
        }
        return result;
    }

    @Override
    public boolean outlivesCall() {
        return false;
    }
}

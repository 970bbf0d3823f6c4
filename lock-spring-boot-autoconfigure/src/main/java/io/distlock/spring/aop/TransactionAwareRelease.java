package io.distlock.spring.aop;

import io.distlock.core.LockLostException;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.util.ClassUtils;

/**
 * Keeps a lock until the transaction the method ran in has completed, when that transaction is
 * still active as the method returns (the method joined a transaction begun further out).
 * Otherwise another holder could read the data before this one's changes are committed. With
 * {@code onLost = CANCEL}, a lease lost before that transaction commits refuses the commit, which
 * rolls it back: the writes were made, or are about to be committed, without the lock.
 * Touches Spring's transaction classes only when they are on the classpath.
 */
final class TransactionAwareRelease {

    private static final System.Logger LOG = System.getLogger(TransactionAwareRelease.class.getName());

    private static final boolean TRANSACTIONS_PRESENT = ClassUtils.isPresent(
            "org.springframework.transaction.support.TransactionSynchronizationManager",
            TransactionAwareRelease.class.getClassLoader());

    private TransactionAwareRelease() {
    }

    /**
     * @param call a call whose method has returned
     * @return {@code true} if its release was registered to run after the current transaction
     *         completes; {@code false} if there is none and the caller releases now
     */
    static boolean deferUntilTransactionCompletes(LockedCall call) {
        return TRANSACTIONS_PRESENT && Synchronizations.register(call);
    }

    /** The part that needs spring-tx, loaded only when it is present. */
    private static final class Synchronizations {

        static boolean register(LockedCall call) {
            if (!TransactionSynchronizationManager.isSynchronizationActive()
                    || !TransactionSynchronizationManager.isActualTransactionActive()) {
                return false;
            }
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void beforeCommit(boolean readOnly) {
                    LockLostException lost = call.cancelsOnLoss() ? call.lossSoFar() : null;
                    if (lost != null) {
                        throw call.stoppedBy(lost);  // the commit is refused: the transaction rolls back
                    }
                }

                @Override
                public void afterCompletion(int status) {
                    try {
                        call.release();
                    } catch (RuntimeException e) {
                        // Nobody is left to throw to: the transaction's caller has its outcome.
                        LOG.log(System.Logger.Level.WARNING, "Releasing " + call + " after its transaction failed",
                                e);
                    }
                }

                @Override
                public int getOrder() {
                    return LOWEST_PRECEDENCE; // after the application's own completion callbacks
                }
            });
            return true;
        }
    }
}

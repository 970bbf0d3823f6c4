package io.distlock.faults.checker;

/**
 * The kinds of lock the checker takes, and whether a hold of the kind excludes every other. A
 * semaphore permit is a kind of its own: it meets no lock (its keys are apart), and at most
 * {@link CheckerSettings#PERMITS} permits of one name may be out at once.
 */
public enum LockKind {
    REENTRANT, FAIR, FENCED, READ, WRITE, MULTI, RED, SEMAPHORE;

    /** @return {@code false} for the read lock (readers share) and the semaphore; every other kind excludes all */
    public boolean exclusive() {
        return this != READ && this != SEMAPHORE;
    }
}

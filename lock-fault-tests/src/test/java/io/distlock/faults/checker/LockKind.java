package io.distlock.faults.checker;

/** The kinds of lock the checker takes, and whether a hold of the kind excludes every other. */
public enum LockKind {
    REENTRANT, FAIR, FENCED, READ, WRITE, MULTI, RED;

    /** @return {@code false} only for the read lock: readers share; every other kind excludes all */
    public boolean exclusive() {
        return this != READ;
    }
}

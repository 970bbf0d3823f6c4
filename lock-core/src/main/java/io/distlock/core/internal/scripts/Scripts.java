package io.distlock.core.internal.scripts;

/**
 * The engine's Lua scripts, each documented in the header of its {@code .lua} file.
 */
public final class Scripts {

    /** Acquire or re-enter a reentrant lock. */
    public static final LuaScript LOCK = LuaScript.load("lock");
    /**
     * The library the release scripts share: a release remembers its answer, so that it answers
     * the same when run again.
     */
    private static final String RELEASE_ANSWER = "release_answer";

    /** Release one hold of a reentrant lock, exactly once; publishes when the lock becomes free. */
    public static final LuaScript UNLOCK = LuaScript.load("unlock", RELEASE_ANSWER);
    /** Hand a reentrant lock from its releasing holder to a waiting holder without freeing it. */
    public static final LuaScript HAND_OFF = LuaScript.load("hand_off", RELEASE_ANSWER);
    /** Renew many leases in one call (watchdog batch). */
    public static final LuaScript RENEW = LuaScript.load("renew");
    /** Give a held reentrant lock an explicit lease from now (composite locks, once all are held). */
    public static final LuaScript LEASE = LuaScript.load("lease");
    /** Read what is left of one hold's lease, in any hash layout (reads only). */
    public static final LuaScript LEASE_LEFT = LuaScript.load("lease_left");
    /** Delete a lock whoever holds it and wake its waiters. */
    public static final LuaScript FORCE_UNLOCK = LuaScript.load("force_unlock");

    /** Acquire or re-enter one half of a read-write lock. */
    public static final LuaScript RW_LOCK = LuaScript.load("rw_lock");
    /** Release one hold of one half of a read-write lock, exactly once. */
    public static final LuaScript RW_UNLOCK = LuaScript.load("rw_unlock", RELEASE_ANSWER);
    /** Give a held half of a read-write lock an explicit lease from now (composite locks). */
    public static final LuaScript RW_LEASE = LuaScript.load("rw_lease");
    /** Renew many read-write lock holds, or semaphore holders, in one call (watchdog batch). */
    public static final LuaScript RW_RENEW = LuaScript.load("rw_renew");

    /** Take one permit of a semaphore. */
    public static final LuaScript SEM_ACQUIRE = LuaScript.load("sem_acquire");
    /** Give back one permit of a semaphore, exactly once. */
    public static final LuaScript SEM_RELEASE = LuaScript.load("sem_release", RELEASE_ANSWER);
    /** Give a semaphore holder's permits an explicit lease from now (composite locks). */
    public static final LuaScript SEM_LEASE = LuaScript.load("sem_lease");
    /** Read a semaphore's permits, and change its permit count if asked. */
    public static final LuaScript SEM_PERMITS = LuaScript.load("sem_permits");

    /** The fair lock: lock, unlock, set the lease, leave the queue, force-unlock. */
    public static final LuaScript FAIR = LuaScript.load("fair", RELEASE_ANSWER);

    private Scripts() {
    }
}

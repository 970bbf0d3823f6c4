package io.distlock.core.scripts;

/**
 * The engine's Lua scripts, each documented in the header of its {@code .lua} file.
 */
public final class Scripts {

    /** Acquire or re-enter a reentrant lock. */
    public static final LuaScript LOCK = LuaScript.load("lock");
    /** Release one hold of a reentrant lock, retry-safe; publishes when the lock becomes free. */
    public static final LuaScript UNLOCK = LuaScript.load("unlock");
    /** Hand a reentrant lock from its releasing holder to a waiting holder without freeing it. */
    public static final LuaScript HAND_OFF = LuaScript.load("hand_off");
    /** Renew many leases in one call (watchdog batch). */
    public static final LuaScript RENEW = LuaScript.load("renew");
    /** Delete a lock whoever holds it and wake its waiters. */
    public static final LuaScript FORCE_UNLOCK = LuaScript.load("force_unlock");

    private Scripts() {
    }
}

package io.distlock.core.internal.engine;

import io.distlock.core.FencedLock;
import org.jspecify.annotations.Nullable;

import java.util.concurrent.TimeUnit;

/**
 * A {@link FencedLock}: the reentrant lock with a fence counter ({@link ReentrantProtocol} in
 * fenced mode); the token of each hold is kept with the hold.
 */
final class ScriptedFencedLock extends ScriptedLock implements FencedLock {

    /**
     * @param ref          the lock, of the fenced protocol
     * @param clientId     the client's id: holder ids of its threads start with it
     * @param acquisitions acquires it
     * @param releases     releases it
     * @param redis        asks Redis about it
     * @param holds        the client's holds, which keep the token of each
     */
    ScriptedFencedLock(LockRef ref, String clientId, Acquisitions acquisitions, Releases releases, RedisCalls redis,
                       HoldRegistry holds) {
        super(ref, clientId, acquisitions, releases, redis, holds);
    }

    @Override
    public long getToken() {
        return getToken(currentHolder());
    }

    @Override
    public long getToken(String holderId) {
        Hold hold = holds().hold(ref().keys(), ref().protocol(), holderId);
        if (hold == null || hold.lost()) {
            throw new IllegalMonitorStateException("Fenced lock '" + getName() + "' is not held by "
                    + (holderId.equals(currentHolder()) ? "the current thread" : "holder '" + holderId + "'")
                    + (hold == null ? "" : ": its lease was lost"));
        }
        return hold.token();
    }

    @Override
    public long lockAndGetToken() {
        lock();
        return getToken();
    }

    @Override
    public @Nullable Long tryLockAndGetToken(long waitTime, long leaseTime, TimeUnit unit)
            throws InterruptedException {
        return tryLock(waitTime, leaseTime, unit) ? getToken() : null;
    }
}

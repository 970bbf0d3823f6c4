package io.distlock.core.internal.engine;

import io.distlock.core.FencedLock;
import org.jspecify.annotations.Nullable;

import java.util.concurrent.TimeUnit;

/**
 * A {@link FencedLock}: the reentrant lock with a fence counter ({@link ReentrantProtocol} in
 * fenced mode); the token of each hold is kept with the hold.
 */
public final class ScriptedFencedLock extends ScriptedLock implements FencedLock {

    /**
     * @param engine   the client's engine
     * @param id       lock name (already checked) and group
     * @param protocol the fenced protocol
     */
    public ScriptedFencedLock(LockEngine engine, LockId id, LockProtocol protocol) {
        super(engine, id, protocol);
    }

    @Override
    public long getToken() {
        return getToken(currentHolder());
    }

    @Override
    public long getToken(String holderId) {
        Hold hold = engine().holds().hold(keys(), protocol(), holderId);
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

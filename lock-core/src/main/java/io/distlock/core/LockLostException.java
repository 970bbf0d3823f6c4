package io.distlock.core;

/**
 * Thrown by {@code unlock()} when the lock's lease was lost while the caller believed it held
 * the lock: the lease expired, or the lock was deleted, before the release. Whatever the caller
 * did under the lock may have overlapped with another holder; fencing tokens
 * ({@code FencedLock}) let the protected resource reject such late writes.
 *
 * <p>Extends {@link IllegalMonitorStateException} so code written against
 * {@link java.util.concurrent.locks.Lock} treats it as "not held".
 */
public class LockLostException extends IllegalMonitorStateException {

    private static final long serialVersionUID = 1L;

    private final String lockName;

    /**
     * @param lockName the lock whose lease was lost
     * @param message  what happened
     */
    public LockLostException(String lockName, String message) {
        super(message);
        this.lockName = lockName;
    }

    /**
     * @return the name of the lock whose lease was lost
     */
    public String getLockName() {
        return lockName;
    }
}

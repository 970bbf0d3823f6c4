package io.distlock.core;

/**
 * A lock could not be acquired within the wait time that was asked for. Thrown by
 * {@link LockTemplate} and by the Spring annotation; the {@link RedisLock} methods themselves
 * report a timeout by returning {@code false}, as {@link java.util.concurrent.locks.Lock} does.
 */
public class LockAcquisitionException extends LockException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message names the lock and the wait time
     */
    public LockAcquisitionException(String message) {
        super(message);
    }

    /**
     * @param message names the lock and the wait time
     * @param cause   why the attempt failed, when it failed for a reason other than a timeout
     */
    public LockAcquisitionException(String message, Throwable cause) {
        super(message, cause);
    }
}

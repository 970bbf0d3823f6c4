package io.distlock.core;

/**
 * Base of distlock's unchecked exceptions: Redis could not be reached, did not answer in time,
 * or answered with an error. {@link LockLostException} is the one exception not derived from it,
 * because it follows the {@link java.util.concurrent.locks.Lock} convention of
 * {@link IllegalMonitorStateException}.
 */
public class LockException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * @param message what went wrong and, where possible, how to fix it
     */
    public LockException(String message) {
        super(message);
    }

    /**
     * @param message what went wrong and, where possible, how to fix it
     * @param cause   the underlying failure (usually a Lettuce exception)
     */
    public LockException(String message, Throwable cause) {
        super(message, cause);
    }
}

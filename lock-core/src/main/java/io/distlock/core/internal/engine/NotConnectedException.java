package io.distlock.core.internal.engine;

import io.distlock.core.LockException;

/**
 * A Redis call made while the client has no connection to send it on ({@link RedisConnector}):
 * it has not connected yet, or its command connection dropped and Lettuce has failed to reconnect
 * it since. Nothing was sent, so there is nothing to take back; an undo of something sent before
 * tries again later. Callers see it as the {@link LockException} it is.
 */
public final class NotConnectedException extends LockException {

    private static final long serialVersionUID = 1L;

    /** @param message where the client tries to connect */
    NotConnectedException(String message) {
        super(message);
    }

    /**
     * @param message where the client tried to connect, and why it could not
     * @param cause   the last attempt's failure
     */
    NotConnectedException(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * @param action what was being done, e.g. {@code "acquire lock 'order:42'"}
     * @return the same failure, saying what was being done
     */
    NotConnectedException doing(String action) {
        return new NotConnectedException("Could not " + action + ": " + getMessage(), this);
    }

    /**
     * @param error what a call failed with ({@link java.util.concurrent.CompletionException}
     *              wrappers are looked through, nothing else: a failure that merely has this one as
     *              its cause may come from a call that sent something)
     * @return whether it failed because the client had no connection, so it sent nothing
     */
    public static boolean sentNothing(Throwable error) {
        return RedisFailures.unwrap(error) instanceof NotConnectedException;
    }
}

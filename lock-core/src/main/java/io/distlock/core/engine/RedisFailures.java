package io.distlock.core.engine;

import io.distlock.core.LockException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * Turns what Lettuce throws into {@link LockException}s whose message says what distlock was
 * doing, what went wrong and what to check. Exceptions the engine reports on purpose
 * ({@link LockException}, {@link IllegalMonitorStateException}) pass unchanged.
 */
public final class RedisFailures {

    private RedisFailures() {
    }

    /**
     * @param error what a future failed with (wrappers are unwrapped)
     * @return the cause without {@link CompletionException}/{@link ExecutionException} wrappers
     */
    public static Throwable unwrap(Throwable error) {
        Throwable e = error;
        while ((e instanceof CompletionException || e instanceof ExecutionException) && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }

    /**
     * @param action what was being done, e.g. {@code "acquire lock 'order:42'"}
     * @param error  the failure
     * @return an exception to throw to the caller
     */
    public static RuntimeException translate(String action, Throwable error) {
        Throwable e = unwrap(error);
        if (e instanceof LockException || e instanceof IllegalMonitorStateException) {
            return (RuntimeException) e;
        }
        return new LockException("Could not " + action + ": " + describe(e), e);
    }

    private static String describe(Throwable e) {
        String message = String.valueOf(e.getMessage());
        for (Throwable c = e; c != null; c = c.getCause()) {
            String m = String.valueOf(c.getMessage());
            if (m.startsWith("NOAUTH") || m.startsWith("WRONGPASS") || m.contains("AUTH failed")) {
                return "Redis refused the credentials (" + m + "). Check the username and password.";
            }
        }
        if (e instanceof RedisCommandTimeoutException) {
            return "Redis did not answer within the command timeout (" + message
                    + "). Check that Redis is running and reachable, or raise the command timeout.";
        }
        if (e instanceof RedisConnectionException) {
            return "Redis is unreachable (" + message + "). Check that Redis is running and reachable.";
        }
        return e.getClass().getSimpleName() + ": " + message;
    }
}

package io.distlock.core.internal.engine;

import io.distlock.core.LockException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import org.jspecify.annotations.Nullable;

import java.net.ConnectException;
import java.net.SocketException;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLException;

/**
 * Turns what Lettuce throws into {@link LockException}s whose message says what distlock was
 * doing, what went wrong and what to check. Exceptions the engine reports on purpose
 * ({@link LockException}, {@link IllegalMonitorStateException}) pass unchanged.
 */
public final class RedisFailures {

    private static final String TRUST_HINT = "LockClient.builder().sslOptions(SslOptions.builder()"
            + ".trustManager(caPemFile).build()), or with Spring Boot a distlock.redis.ssl-bundle";

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
        SSLException tls = find(e, SSLException.class);
        if (tls != null) {
            return describeTls(e, tls);
        }
        if (e instanceof RedisCommandTimeoutException || e instanceof TimeoutException) {
            // Lettuce's timeout says how long it waited, and so do the engine's own (ReplyDeadlines)
            return "Redis did not answer within the command timeout" + (e.getMessage() == null ? "" : " (" + message
                    + ")") + ". Check that Redis is running and reachable, or raise the command timeout.";
        }
        if (e instanceof RedisConnectionException connect) {
            return describeConnectFailure(connect);
        }
        return e.getClass().getSimpleName() + ": " + message;
    }

    private static String describeConnectFailure(RedisConnectionException e) {
        String message = e.getMessage();
        RedisCommandTimeoutException stalled = find(e, RedisCommandTimeoutException.class);
        if (stalled != null) {
            return "Redis did not complete the connection handshake in time (" + message + ": "
                    + stalled.getMessage() + "). Check that Redis is running and reachable, and that the URI's "
                    + "scheme matches the server: rediss:// only if it accepts TLS, redis:// otherwise.";
        }
        SocketException dropped = find(e, SocketException.class);
        if (dropped != null && !(dropped instanceof ConnectException)) {
            return "Redis closed the connection (" + message + ": " + dropped.getMessage() + "). If the server "
                    + "accepts only TLS, connect with a rediss:// URI; otherwise check that Redis is running and "
                    + "reachable.";
        }
        return "Redis is unreachable (" + message + "). Check that Redis is running and reachable.";
    }

    private static String describeTls(Throwable e, SSLException tls) {
        String detail = e.getMessage() + ": " + tls.getMessage();
        if (find(e, CertPathBuilderException.class) != null || find(e, CertPathValidatorException.class) != null) {
            return "Redis's TLS certificate is not trusted (" + detail + "). Trust the CA that signed it: "
                    + TRUST_HINT + ".";
        }
        if (find(e, CertificateException.class) != null) {
            return "Redis's TLS certificate was rejected (" + detail + "). Check that it is valid and issued for "
                    + "the host name in the URI, and that its CA is trusted: " + TRUST_HINT + ".";
        }
        return "The TLS handshake with Redis failed (" + detail + "). Check that the server accepts TLS on this "
                + "port (else use redis:// instead of rediss://) and that its certificate is trusted: "
                + TRUST_HINT + ".";
    }

    private static <T extends Throwable> @Nullable T find(Throwable e, Class<T> type) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (type.isInstance(c)) {
                return type.cast(c);
            }
        }
        return null;
    }
}

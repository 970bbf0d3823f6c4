package io.distlock.core.internal.engine;

import io.distlock.core.LockException;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import org.jspecify.annotations.Nullable;

import java.net.ConnectException;
import java.net.SocketException;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import javax.net.ssl.SSLException;

/**
 * Turns what Lettuce throws into {@link LockException}s whose message says what distlock was
 * doing, what went wrong and what to check. Exceptions the engine reports on purpose
 * ({@link LockException}, {@link IllegalMonitorStateException}) pass unchanged, but for a
 * {@link NotConnectedException}, which is told what was being done.
 */
public final class RedisFailures {

    private static final String TRUST_HINT = "LockClient.builder().sslOptions(SslOptions.builder()"
            + ".trustManager(caPemFile).build()), or with Spring Boot a distlock.redis.ssl-bundle";

    /** What error answers (besides NOAUTH and WRONGPASS) say when the client's credentials are wrong. */
    private static final List<String> CREDENTIAL_ANSWERS = List.of("AUTH failed", "invalid password",
            "no password is set", "without any password configured");
    /** What error answers to a connection's setup say when the client's other settings are wrong. */
    private static final List<String> CONFIGURATION_ANSWERS = List.of("NOPERM", "DB index", "DENIED");

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
        if (e instanceof NotConnectedException notConnected) {
            return notConnected.doing(action);  // it says why, but not what was being done
        }
        if (e instanceof LockException || e instanceof IllegalMonitorStateException) {
            return (RuntimeException) e;
        }
        return new LockException("Could not " + action + ": " + describe(e), e);
    }

    /**
     * @param error a failure to connect
     * @return whether Redis answered but refused the client for its configuration: its credentials
     *         or ACL permissions, its database number, protected mode, or the TLS certificates. That
     *         is a configuration error, which trying again does not cure. Anything else is an
     *         outage, also an error answer not listed here (too many clients, a Redis still loading)
     *         and a TLS handshake cut short (a server shutting down, a proxy in front of a dead one)
     */
    public static boolean refused(Throwable error) {
        if (refusedCredentials(error) != null) {
            return true;
        }
        RedisCommandExecutionException answer = find(error, RedisCommandExecutionException.class);
        if (answer != null && CONFIGURATION_ANSWERS.stream().anyMatch(String.valueOf(answer.getMessage())::contains)) {
            return true;
        }
        return untrustedCertificate(error);
    }

    /** @return whether a TLS handshake failed over a certificate: not trusted, not valid, or not accepted */
    private static boolean untrustedCertificate(Throwable error) {
        if (find(error, SSLException.class) == null) {
            return false;
        }
        return find(error, CertificateException.class) != null || find(error, CertPathBuilderException.class) != null
                || find(error, CertPathValidatorException.class) != null
                || first(error, c -> c instanceof SSLException && String.valueOf(c.getMessage()).contains("certificate")
                        ? c : null) != null;
    }

    /**
     * @param error a failure to (re)connect
     * @return whether nothing listened at the address: the connection was refused, which the
     *         operating system reports at once (a connect that timed out is not a refusal)
     */
    public static boolean connectionRefused(Throwable error) {
        return first(error, c -> c instanceof ConnectException
                && String.valueOf(c.getMessage()).toLowerCase(Locale.ROOT).contains("refused") ? c : null) != null;
    }

    /** @return Redis's answer refusing the credentials, if the failure was one */
    private static @Nullable String refusedCredentials(Throwable e) {
        return first(e, c -> {
            String m = String.valueOf(c.getMessage());
            return m.startsWith("NOAUTH") || m.startsWith("WRONGPASS") || CREDENTIAL_ANSWERS.stream().anyMatch(m::contains)
                    ? m : null;
        });
    }

    private static String describe(Throwable e) {
        String message = String.valueOf(e.getMessage());
        String credentials = refusedCredentials(e);
        if (credentials != null) {
            return "Redis refused the credentials (" + credentials + "). Check the username and password.";
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
        if (e instanceof RedisConnectionException || e instanceof ConnectException) {
            return describeConnectFailure(e);
        }
        return e.getClass().getSimpleName() + ": " + message;
    }

    /** @param e a {@link RedisConnectionException}, or a reconnect's {@link ConnectException} */
    private static String describeConnectFailure(Throwable e) {
        String message = e.getMessage();
        RedisCommandTimeoutException stalled = find(e, RedisCommandTimeoutException.class);
        if (stalled != null) {
            return "Redis did not complete the connection handshake in time (" + message + ": "
                    + stalled.getMessage() + "). Check that Redis is running and reachable, and that the URI's "
                    + "scheme matches the server: rediss:// only if it accepts TLS, redis:// otherwise.";
        }
        RedisCommandExecutionException answer = find(e, RedisCommandExecutionException.class);
        if (answer != null) {
            return refused(e)
                    ? "Redis refused to set up the connection (" + message + ": " + answer.getMessage() + "). Check "
                    + "the user's permissions (ACL) and the database number in the URI."
                    : "Redis cannot serve the connection now (" + message + ": " + answer.getMessage() + ").";
        }
        SocketException dropped = find(e, SocketException.class);
        if (dropped != null && !(dropped instanceof ConnectException)) {
            return "Redis closed the connection (" + message + ": " + dropped.getMessage() + "). If the server "
                    + "accepts only TLS, connect with a rediss:// URI; otherwise check that Redis is running and "
                    + "reachable.";
        }
        if (connectionRefused(e)) {
            return "Redis refused the connection (" + message + "): nothing listens at that address. Check that "
                    + "Redis is running and reachable at that host and port.";
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
        return first(e, c -> type.isInstance(c) ? type.cast(c) : null);
    }

    /**
     * @return the first non-null answer of {@code test} for the failure, its causes, and the
     *         failures suppressed in them (a cluster client puts each seed node's failure there)
     */
    private static <T> @Nullable T first(Throwable e, Function<Throwable, @Nullable T> test) {
        Deque<Throwable> toSee = new ArrayDeque<>(List.of(e));
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        while (!toSee.isEmpty()) {
            Throwable c = toSee.removeFirst();
            if (!seen.add(c)) {
                continue;
            }
            T found = test.apply(c);
            if (found != null) {
                return found;
            }
            if (c.getCause() != null) {
                toSee.addLast(c.getCause());
            }
            toSee.addAll(Arrays.asList(c.getSuppressed()));
        }
        return null;
    }
}

package io.distlock.test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Immutable options for starting a {@link RedisServer}: extra {@code redis-server} arguments (also used
 * on every restart), an optional mode override, and timeouts.
 *
 * <pre>{@code
 * RedisServerOptions options = RedisServerOptions.defaults()
 *         .withArgs("--appendonly", "yes")
 *         .withPassword("secret");
 * }</pre>
 */
public final class RedisServerOptions {

    private static final RedisServerOptions DEFAULTS = new RedisServerOptions(
            List.of(), null, Duration.ofSeconds(15), Duration.ofSeconds(10), null, null, null);

    private final List<String> extraArgs;
    private final RedisMode mode;
    private final Duration startupTimeout;
    private final Duration commandTimeout;
    private final TestCertificates tls;
    private final String aclUser;
    private final String aclPassword;

    private RedisServerOptions(List<String> extraArgs, RedisMode mode, Duration startupTimeout,
            Duration commandTimeout, TestCertificates tls, String aclUser, String aclPassword) {
        this.extraArgs = Collections.unmodifiableList(new ArrayList<>(extraArgs));
        this.mode = mode;
        this.startupTimeout = startupTimeout;
        this.commandTimeout = commandTimeout;
        this.tls = tls;
        this.aclUser = aclUser;
        this.aclPassword = aclPassword;
    }

    /**
     * Returns the default options: no extra arguments, configured mode, 15 s startup and 10 s command timeout.
     *
     * @return the defaults
     */
    public static RedisServerOptions defaults() {
        return DEFAULTS;
    }

    /**
     * Returns a copy with more {@code redis-server} arguments appended, e.g. {@code "--appendonly", "yes"}.
     *
     * @param args arguments passed verbatim to the server (no shell quoting needed; {@code ""} is an empty argument)
     * @return the new options
     */
    public RedisServerOptions withArgs(String... args) {
        List<String> all = new ArrayList<>(extraArgs);
        for (String arg : args) {
            all.add(Objects.requireNonNull(arg, "arg"));
        }
        return new RedisServerOptions(all, mode, startupTimeout, commandTimeout, tls, aclUser, aclPassword);
    }

    /**
     * Returns a copy that starts the server with {@code --requirepass password}; raw commands then AUTH first.
     *
     * @param password the password
     * @return the new options
     */
    public RedisServerOptions withPassword(String password) {
        return withArgs("--requirepass", Objects.requireNonNull(password, "password"));
    }

    /**
     * Returns a copy whose server accepts only TLS connections ({@code --port 0 --tls-port <port>}), with the
     * server certificate and key of {@code certificates} and without client certificates
     * ({@code --tls-auth-clients no}). {@link RedisServer#uri()} then starts with {@code rediss://}, and raw
     * commands connect with TLS, trusting {@link TestCertificates#caCertificate()}. Local processes only
     * (standalone servers, not cluster nodes); the Redis binary must be built with TLS.
     *
     * @param certificates the certificates, usually {@link TestCertificates#shared()}
     * @return the new options
     */
    public RedisServerOptions withTls(TestCertificates certificates) {
        Objects.requireNonNull(certificates, "certificates");
        return new RedisServerOptions(extraArgs, mode, startupTimeout, commandTimeout, certificates, aclUser,
                aclPassword).withArgs(
                "--tls-cert-file", certificates.serverCertificate().toString(),
                "--tls-key-file", certificates.serverPrivateKey().toString(),
                "--tls-ca-cert-file", certificates.caCertificate().toString(),
                "--tls-auth-clients", "no");
    }

    /**
     * Returns a copy whose server has the ACL user {@code username} (all keys, channels and commands) and no
     * usable {@code default} user, so every connection must {@code AUTH username password}; raw commands do.
     *
     * @param username the ACL user, without spaces
     * @param password its password, without spaces
     * @return the new options
     */
    public RedisServerOptions withAclUser(String username, String password) {
        Objects.requireNonNull(username, "username");
        Objects.requireNonNull(password, "password");
        if (username.isBlank() || username.contains(" ") || password.isEmpty() || password.contains(" ")) {
            throw new IllegalArgumentException("ACL user name and password must be non-empty and without spaces");
        }
        return new RedisServerOptions(extraArgs, mode, startupTimeout, commandTimeout, tls, username, password)
                .withArgs("--user", username, "on", ">" + password, "~*", "&*", "+@all", "--user", "default", "off");
    }

    /**
     * Returns the certificates of a TLS-only server ({@link #withTls(TestCertificates)}), if any.
     *
     * @return the certificates
     */
    public Optional<TestCertificates> tls() {
        return Optional.ofNullable(tls);
    }

    /**
     * Returns the ACL user set by {@link #withAclUser(String, String)}, if any.
     *
     * @return the user name
     */
    public Optional<String> username() {
        return Optional.ofNullable(aclUser);
    }

    /**
     * Returns a copy that uses the given mode instead of the configured one ({@link RedisMode#configured()}).
     *
     * @param mode the mode to use
     * @return the new options
     */
    public RedisServerOptions withMode(RedisMode mode) {
        return new RedisServerOptions(extraArgs, Objects.requireNonNull(mode, "mode"), startupTimeout,
                commandTimeout, tls, aclUser, aclPassword);
    }

    /**
     * Returns a copy with another bound on how long a start or restart may wait for the server to answer PING.
     *
     * @param timeout positive timeout
     * @return the new options
     */
    public RedisServerOptions withStartupTimeout(Duration timeout) {
        return new RedisServerOptions(extraArgs, mode, positive(timeout), commandTimeout, tls, aclUser,
                aclPassword);
    }

    /**
     * Returns a copy with another default connect/read timeout for {@link RedisServer#command(String...)}.
     *
     * @param timeout positive timeout
     * @return the new options
     */
    public RedisServerOptions withCommandTimeout(Duration timeout) {
        return new RedisServerOptions(extraArgs, mode, startupTimeout, positive(timeout), tls, aclUser,
                aclPassword);
    }

    /**
     * Returns the extra server arguments.
     *
     * @return unmodifiable list of arguments
     */
    public List<String> extraArgs() {
        return extraArgs;
    }

    /**
     * Returns the password of the ACL user ({@link #withAclUser(String, String)}) if one is set, else the one
     * given by the last {@code --requirepass} argument, if any.
     *
     * @return the password
     */
    public Optional<String> password() {
        if (aclPassword != null) {
            return Optional.of(aclPassword);
        }
        String password = null;
        for (int i = 0; i < extraArgs.size() - 1; i++) {
            if ("--requirepass".equalsIgnoreCase(extraArgs.get(i))) {
                password = extraArgs.get(i + 1);
            }
        }
        return Optional.ofNullable(password).filter(p -> !p.isEmpty());
    }

    /**
     * @return whether the arguments make the server a Redis Cluster node ({@code --cluster-enabled yes}),
     *         which also listens on its port + 10000
     */
    public boolean clusterEnabled() {
        for (int i = 0; i < extraArgs.size() - 1; i++) {
            if ("--cluster-enabled".equalsIgnoreCase(extraArgs.get(i))) {
                return "yes".equalsIgnoreCase(extraArgs.get(i + 1));
            }
        }
        return false;
    }

    /**
     * @return whether the arguments make the server a Sentinel ({@code --sentinel ...}), which
     *         needs a writable configuration file of its own
     */
    public boolean sentinel() {
        return extraArgs.stream().anyMatch("--sentinel"::equalsIgnoreCase);
    }

    /**
     * Returns the mode to use: the override if one was set, else {@link RedisMode#configured()}.
     *
     * @return the mode, possibly {@link RedisMode#AUTO}
     */
    public RedisMode mode() {
        return mode != null ? mode : RedisMode.configured();
    }

    /**
     * Returns the bound on waiting for a started server to answer PING.
     *
     * @return the startup timeout
     */
    public Duration startupTimeout() {
        return startupTimeout;
    }

    /**
     * Returns the default connect/read timeout of raw commands.
     *
     * @return the command timeout
     */
    public Duration commandTimeout() {
        return commandTimeout;
    }

    @Override
    public String toString() {
        List<String> shown = new ArrayList<>(extraArgs);
        for (int i = 0; i < shown.size() - 1; i++) {
            if ("--requirepass".equalsIgnoreCase(shown.get(i))) {
                shown.set(i + 1, "****");
            }
        }
        shown.replaceAll(arg -> arg.startsWith(">") ? ">****" : arg); // ACL passwords
        return "RedisServerOptions" + Arrays.asList("args=" + shown, "mode=" + (mode == null ? "configured" : mode),
                "startupTimeout=" + startupTimeout, "commandTimeout=" + commandTimeout);
    }

    private static Duration positive(Duration timeout) {
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive: " + timeout);
        }
        return timeout;
    }
}

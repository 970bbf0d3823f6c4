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
            List.of(), null, Duration.ofSeconds(15), Duration.ofSeconds(10));

    private final List<String> extraArgs;
    private final RedisMode mode;
    private final Duration startupTimeout;
    private final Duration commandTimeout;

    private RedisServerOptions(List<String> extraArgs, RedisMode mode, Duration startupTimeout,
            Duration commandTimeout) {
        this.extraArgs = Collections.unmodifiableList(new ArrayList<>(extraArgs));
        this.mode = mode;
        this.startupTimeout = startupTimeout;
        this.commandTimeout = commandTimeout;
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
        return new RedisServerOptions(all, mode, startupTimeout, commandTimeout);
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
     * Returns a copy that uses the given mode instead of the configured one ({@link RedisMode#configured()}).
     *
     * @param mode the mode to use
     * @return the new options
     */
    public RedisServerOptions withMode(RedisMode mode) {
        return new RedisServerOptions(extraArgs, Objects.requireNonNull(mode, "mode"), startupTimeout,
                commandTimeout);
    }

    /**
     * Returns a copy with another bound on how long a start or restart may wait for the server to answer PING.
     *
     * @param timeout positive timeout
     * @return the new options
     */
    public RedisServerOptions withStartupTimeout(Duration timeout) {
        return new RedisServerOptions(extraArgs, mode, positive(timeout), commandTimeout);
    }

    /**
     * Returns a copy with another default connect/read timeout for {@link RedisServer#command(String...)}.
     *
     * @param timeout positive timeout
     * @return the new options
     */
    public RedisServerOptions withCommandTimeout(Duration timeout) {
        return new RedisServerOptions(extraArgs, mode, startupTimeout, positive(timeout));
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
     * Returns the password given by the last {@code --requirepass} argument, if any.
     *
     * @return the password
     */
    public Optional<String> password() {
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

package io.distlock.test;

import java.util.Locale;

/**
 * Where the Redis servers of the test fixture come from.
 *
 * <p>The mode is read from the system property {@value #PROPERTY} or, when that is absent, from the
 * environment variable {@value #ENV}; the system property wins. Values are case-insensitive:
 * {@code auto} (the default), {@code process}, {@code embedded} and {@code docker}.
 */
public enum RedisMode {
    /** Docker (Testcontainers) when a Docker engine is reachable, else {@link #PROCESS}. */
    AUTO,
    /** A local {@code redis-server} process: {@code REDIS_SERVER_BIN}, then {@code PATH}, then the embedded binary. */
    PROCESS,
    /** A local process of the Redis 6.2 binary shipped inside the embedded-redis jar. */
    EMBEDDED,
    /** A {@code redis:7.2} container started through Testcontainers. */
    DOCKER;

    /** System property selecting the mode; wins over {@link #ENV}. */
    public static final String PROPERTY = "distlock.test.redis";

    /** Environment variable selecting the mode when {@link #PROPERTY} is not set. */
    public static final String ENV = "DISTLOCK_TEST_REDIS";

    /**
     * Returns the mode configured through {@value #PROPERTY} or {@value #ENV}, {@link #AUTO} if neither is set.
     *
     * @return the configured mode, never {@code null}
     * @throws IllegalArgumentException if the configured value is not a known mode
     */
    public static RedisMode configured() {
        String value = System.getProperty(PROPERTY);
        String origin = "system property " + PROPERTY;
        if (value == null || value.isBlank()) {
            value = System.getenv(ENV);
            origin = "environment variable " + ENV;
        }
        if (value == null || value.isBlank()) {
            return AUTO;
        }
        try {
            return parse(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + " (from " + origin + ")", e);
        }
    }

    /**
     * Parses a mode name, ignoring case and surrounding blanks.
     *
     * @param value one of {@code auto}, {@code process}, {@code embedded}, {@code docker}
     * @return the mode
     * @throws IllegalArgumentException if the value is not a known mode
     */
    public static RedisMode parse(String value) {
        String normalized = value.trim().toUpperCase(Locale.ROOT);
        for (RedisMode mode : values()) {
            if (mode.name().equals(normalized)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("Unknown Redis test mode '" + value
                + "'; expected one of auto, process, embedded, docker");
    }

    /**
     * Resolves {@link #AUTO} to {@link #DOCKER} or {@link #PROCESS}; other modes resolve to themselves.
     *
     * @return a concrete mode, never {@link #AUTO}
     */
    public RedisMode resolve() {
        if (this != AUTO) {
            return this;
        }
        // Testcontainers is asked only when something points at Docker: on a machine without it,
        // asking would log an ERROR that no Docker environment was found.
        return DockerAvailability.inSight() && DockerAvailability.isAvailable() ? DOCKER : PROCESS;
    }
}

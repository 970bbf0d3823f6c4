package io.distlock.test;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code redis-server} executable and its version, chosen for local process mode.
 *
 * <p>{@link #discover()} looks at the environment variable {@value #ENV} first, then for
 * {@code redis-server} on {@code PATH}, and finally falls back to the Redis 6.2 binary inside the
 * embedded-redis jar ({@link #embedded()}). Results are cached per JVM and logged once. With the system
 * property {@value #REQUIRE_PROPERTY} set (the build sets it on CI), a discovered binary older than that
 * version is refused instead of used.
 */
public final class RedisBinary {

    /** Environment variable naming an explicit {@code redis-server} executable. */
    public static final String ENV = "REDIS_SERVER_BIN";

    /**
     * System property naming the oldest Redis version {@link #discover()} may return, e.g. {@code 7}; blank or
     * absent: any. The build sets it to 7 when {@code CI=true}, so that the suite cannot run on the embedded 6.2
     * binary without anyone noticing. A binary chosen explicitly through {@link RedisMode#EMBEDDED} is not checked.
     */
    public static final String REQUIRE_PROPERTY = "distlock.test.require-redis";

    private static final System.Logger LOG = System.getLogger(RedisBinary.class.getName());
    private static final Pattern VERSION = Pattern.compile("v=([0-9][^\\s]*)");
    private static final Pattern LEADING_DIGITS = Pattern.compile("[0-9]{1,9}");

    private static volatile RedisBinary discovered;
    private static volatile RedisBinary embedded;

    /** Where a binary was found. */
    public enum Source {
        /** The file named by {@value RedisBinary#ENV}. */
        ENV_VARIABLE,
        /** {@code redis-server} found on {@code PATH}. */
        PATH,
        /** Extracted from the embedded-redis jar. */
        EMBEDDED_JAR
    }

    private final Path path;
    private final String version;
    private final Source source;

    private RedisBinary(Path path, String version, Source source) {
        this.path = path;
        this.version = version;
        this.source = source;
    }

    /**
     * Returns the binary for a process-based mode: {@link #embedded()} for {@link RedisMode#EMBEDDED},
     * {@link #discover()} for {@link RedisMode#PROCESS} and {@link RedisMode#AUTO}.
     *
     * @param mode the mode
     * @return the binary
     * @throws IllegalArgumentException for {@link RedisMode#DOCKER}
     */
    public static RedisBinary forMode(RedisMode mode) {
        return switch (mode) {
            case EMBEDDED -> embedded();
            case PROCESS, AUTO -> discover();
            case DOCKER -> throw new IllegalArgumentException("Mode " + mode + " does not use a local binary");
        };
    }

    /**
     * Returns the binary from {@value #ENV}, else {@code redis-server} on {@code PATH}, else the embedded one.
     *
     * @return the binary, cached per JVM
     * @throws IllegalStateException if {@value #ENV} points to a missing or non-executable file, or if the
     *                               binary is older than {@value #REQUIRE_PROPERTY} demands
     */
    public static RedisBinary discover() {
        RedisBinary result = discovered;
        if (result == null) {
            synchronized (RedisBinary.class) {
                result = discovered;
                if (result == null) {
                    result = discover(System.getenv());
                    requireAtLeast(System.getProperty(REQUIRE_PROPERTY), result);
                    if (result.source != Source.EMBEDDED_JAR) {
                        logChoice(result); // embedded() already logged its choice
                    }
                    discovered = result;
                }
            }
        }
        return result;
    }

    /**
     * Returns the Redis 6.2 binary of the embedded-redis jar for this OS and architecture, extracted once
     * per JVM into a temporary directory.
     *
     * @return the binary, cached per JVM
     * @throws IllegalStateException if the platform has no embedded binary
     */
    public static RedisBinary embedded() {
        RedisBinary result = embedded;
        if (result == null) {
            synchronized (RedisBinary.class) {
                result = embedded;
                if (result == null) {
                    result = of(EmbeddedBinaryExtractor.extract(), Source.EMBEDDED_JAR);
                    logChoice(result);
                    embedded = result;
                }
            }
        }
        return result;
    }

    /** Resolution without caching, with the environment as a parameter (visible for tests). */
    static RedisBinary discover(Map<String, String> env) {
        String explicit = env.get(ENV);
        if (explicit != null && !explicit.isBlank()) {
            Path path = Paths.get(explicit.trim());
            if (!Files.isRegularFile(path) || !Files.isExecutable(path)) {
                throw new IllegalStateException(ENV + "=" + explicit + " does not point to an executable file"
                        + (Files.exists(path) ? " (it exists but is not executable)" : " (no such file)"));
            }
            return of(path, Source.ENV_VARIABLE);
        }
        Path onPath = findOnPath(env.get("PATH"));
        if (onPath != null) {
            return of(onPath, Source.PATH);
        }
        return embedded();
    }

    /**
     * Refuses a binary older than the required version (visible for tests).
     *
     * @param required a version such as {@code 7} or {@code 7.2}; {@code null} or blank requires nothing
     * @param binary   the binary found
     * @throws IllegalStateException if the binary is older
     */
    static void requireAtLeast(String required, RedisBinary binary) {
        if (required == null || required.isBlank()) {
            return;
        }
        if (!required.trim().matches("[0-9]{1,9}(\\.[0-9]{1,9})*")) {
            throw new IllegalArgumentException(REQUIRE_PROPERTY + " must be a version such as 7 or 7.2, not '"
                    + required + "'");
        }
        if (!atLeast(binary.version, required.trim())) {
            throw new IllegalStateException(REQUIRE_PROPERTY + "=" + required.trim() + " but the tests found "
                    + binary + ". Install Redis " + required.trim() + " or newer (Debian/Ubuntu: apt-get install "
                    + "redis-server) or set " + ENV + " to one; " + RedisMode.PROPERTY + "=embedded runs on the "
                    + "embedded binary on purpose.");
        }
    }

    /** Compares dotted versions number by number, as far as {@code required} goes: 7.0.15 is at least 7. */
    static boolean atLeast(String version, String required) {
        String[] have = version.split("\\.");
        String[] need = required.split("\\.");
        for (int i = 0; i < need.length; i++) {
            int wanted = Integer.parseInt(need[i]);
            int found = i < have.length ? leadingNumber(have[i]) : 0;
            if (found != wanted) {
                return found > wanted;
            }
        }
        return true;
    }

    private static int leadingNumber(String part) {
        Matcher digits = LEADING_DIGITS.matcher(part);
        return digits.lookingAt() ? Integer.parseInt(digits.group()) : 0;
    }

    private static Path findOnPath(String pathVariable) {
        if (pathVariable == null) {
            return null;
        }
        for (String dir : pathVariable.split(Pattern.quote(File.pathSeparator))) {
            if (dir.isBlank()) {
                continue;
            }
            Path candidate = Paths.get(dir, "redis-server");
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    private static RedisBinary of(Path path, Source source) {
        return new RedisBinary(path.toAbsolutePath(), readVersion(path), source);
    }

    /** Runs {@code <binary> --version} (bounded) and parses {@code v=X.Y.Z}. */
    static String readVersion(Path binary) {
        try {
            Process process = new ProcessBuilder(binary.toString(), "--version").redirectErrorStream(true).start();
            byte[] output;
            try {
                process.getOutputStream().close();
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    throw new IllegalStateException(binary + " --version did not finish within 10 s");
                }
                output = process.getInputStream().readAllBytes();
            } finally {
                process.destroyForcibly();
            }
            String text = new String(output, StandardCharsets.UTF_8).trim();
            Matcher matcher = VERSION.matcher(text);
            if (!matcher.find()) {
                throw new IllegalStateException("Cannot parse the version of " + binary + " from: " + text);
            }
            return matcher.group(1);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot run " + binary + " --version", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while running " + binary + " --version", e);
        }
    }

    private static void logChoice(RedisBinary binary) {
        LOG.log(Level.INFO, "distlock tests use Redis " + binary.version + " from " + binary.path
                + " (" + binary.source + ")");
    }

    /**
     * Returns the absolute path of the executable.
     *
     * @return the path
     */
    public Path path() {
        return path;
    }

    /**
     * Returns the version reported by {@code redis-server --version}, e.g. {@code "7.0.15"}.
     *
     * @return the version
     */
    public String version() {
        return version;
    }

    /**
     * Returns where the binary was found.
     *
     * @return the source
     */
    public Source source() {
        return source;
    }

    /** Returns e.g. {@code "redis-server 7.0.15 at /usr/bin/redis-server (PATH)"}. */
    @Override
    public String toString() {
        return "redis-server " + version + " at " + path + " (" + source + ")";
    }
}

package io.distlock.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * Names the Git commit the benchmark was built from, for a report's header: {@code git describe
 * --always --dirty} of the checkout at build time, which the build records in {@code git.properties}
 * beside this class. A {@code -dirty} suffix says the checkout had uncommitted changes when the jar
 * was built. The jar bundles the engine it measures, so this is the engine's commit too.
 */
final class GitCommit {

    /** What is reported when the build recorded no commit (built outside a Git checkout). */
    static final String UNKNOWN = "unknown";

    private static final String DESCRIBE = "git.commit.id.describe";

    private GitCommit() {
    }

    /** @return the commit the benchmark was built from, or {@value #UNKNOWN} */
    static String ofBenchmark() {
        try (InputStream recorded = GitCommit.class.getResourceAsStream("git.properties")) {
            return of(recorded);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read the benchmark's git.properties", e);
        }
    }

    /**
     * @param recorded the build's {@code git.properties}, or {@code null} if it wrote none
     * @return its {@code git describe} value, or {@value #UNKNOWN} if there is none
     * @throws IOException if it cannot be read
     */
    static String of(InputStream recorded) throws IOException {
        if (recorded == null) {
            return UNKNOWN;
        }
        Properties properties = new Properties();
        properties.load(recorded);
        String described = properties.getProperty(DESCRIBE, "").trim();
        return described.isEmpty() ? UNKNOWN : described;
    }
}

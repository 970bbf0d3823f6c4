package io.distlock.benchmarks;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.concurrent.TimeUnit;

/**
 * Names the Git commit a report measured, for its header: {@code git describe --always --dirty}
 * in the checkout that holds the benchmark's own jar (or class directory), since the jar bundles
 * the engine of that checkout. A {@code -dirty} suffix says the checkout had uncommitted changes.
 */
final class GitCommit {

    /** What is reported when Git cannot say: no checkout, no {@code git}, or no answer in time. */
    static final String UNKNOWN = "unknown";

    private static final long TIMEOUT_SECONDS = 5;

    private GitCommit() {
    }

    /** @return the commit of the checkout the benchmark's code was loaded from, or {@value #UNKNOWN} */
    static String ofBenchmark() {
        CodeSource source = GitCommit.class.getProtectionDomain().getCodeSource();
        if (source == null) {
            return UNKNOWN;
        }
        try {
            Path location = Path.of(source.getLocation().toURI());
            return of(Files.isDirectory(location) ? location : location.getParent());
        } catch (URISyntaxException | IllegalArgumentException | FileSystemNotFoundException e) {
            return UNKNOWN;
        }
    }

    /**
     * @param directory a directory, normally inside a Git checkout
     * @return {@code git describe --always --dirty} there, e.g. {@code "3d998b8"} or
     *         {@code "3d998b8-dirty"}; {@value #UNKNOWN} if Git fails or takes longer than
     *         {@value #TIMEOUT_SECONDS} s
     */
    static String of(Path directory) {
        Process git;
        try {
            git = new ProcessBuilder("git", "-C", directory.toString(), "describe", "--always", "--dirty")
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            return UNKNOWN;
        }
        try {
            // Its answer is one short line, far below a pipe's buffer: read once it has ended.
            if (!git.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS) || git.exitValue() != 0) {
                return UNKNOWN;
            }
            String described = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return described.isEmpty() ? UNKNOWN : described;
        } catch (IOException e) {
            return UNKNOWN;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return UNKNOWN;
        } finally {
            git.destroyForcibly();
        }
    }
}

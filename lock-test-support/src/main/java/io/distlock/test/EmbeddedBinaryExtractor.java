package io.distlock.test;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** Copies the platform's {@code redis-server} out of the embedded-redis jar into a temporary directory. */
final class EmbeddedBinaryExtractor {

    private static final String PREFIX = "distlock-redis-bin-";
    private static final Pattern OWNER_PID = Pattern.compile(Pattern.quote(PREFIX) + "(\\d+)-.*");

    private EmbeddedBinaryExtractor() {
    }

    static Path extract() {
        String resource = resourceName(System.getProperty("os.name"), System.getProperty("os.arch"));
        try (InputStream in = EmbeddedBinaryExtractor.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("Resource " + resource
                        + " not found: is com.github.codemonstur:embedded-redis on the classpath?");
            }
            deleteCopiesOfDeadJvms();
            Path dir = Files.createTempDirectory(PREFIX + ProcessHandle.current().pid() + "-");
            dir.toFile().deleteOnExit();
            Path target = dir.resolve(resource);
            Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
            target.toFile().deleteOnExit();
            makeExecutable(target);
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot extract embedded " + resource, e);
        }
    }

    static String resourceName(String osName, String osArch) {
        String os = osName.toLowerCase(Locale.ROOT);
        String arch = osArch.toLowerCase(Locale.ROOT);
        boolean x64 = arch.equals("amd64") || arch.equals("x86_64");
        boolean arm64 = arch.equals("aarch64") || arch.equals("arm64");
        if (os.contains("linux") && x64) {
            return "redis-server-6.2.6-v5-linux-amd64";
        }
        if (os.contains("linux") && arm64) {
            return "redis-server-6.2.7-linux-arm64";
        }
        if ((os.contains("mac") || os.contains("darwin")) && x64) {
            return "redis-server-6.2.6-v5-darwin-amd64";
        }
        if ((os.contains("mac") || os.contains("darwin")) && arm64) {
            return "redis-server-6.2.6-v5-darwin-arm64";
        }
        throw new IllegalStateException("No embedded redis-server for os.name=" + osName + ", os.arch=" + osArch
                + "; install redis-server or set " + RedisBinary.ENV);
    }

    /** Copies of JVMs that were SIGKILLed (so deleteOnExit never ran) would pile up in the temp dir. */
    private static void deleteCopiesOfDeadJvms() {
        Path tmp = Paths.get(System.getProperty("java.io.tmpdir"));
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(tmp, PREFIX + "*")) {
            for (Path dir : dirs) {
                Matcher owner = OWNER_PID.matcher(dir.getFileName().toString());
                if (owner.matches() && ProcessHandle.of(Long.parseLong(owner.group(1))).isEmpty()) {
                    try (Stream<Path> files = Files.walk(dir)) {
                        files.sorted(Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            // best effort only
        }
    }

    private static void makeExecutable(Path file) throws IOException {
        try {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        } catch (UnsupportedOperationException e) {
            if (!file.toFile().setExecutable(true)) {
                throw new IOException("Cannot make " + file + " executable");
            }
        }
    }
}

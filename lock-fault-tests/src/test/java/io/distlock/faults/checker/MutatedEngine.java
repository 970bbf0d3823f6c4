package io.distlock.faults.checker;

import io.distlock.core.LockClient;

import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Builds the classes directory that plants one {@link PlantedDefect} in the worker JVMs, put before
 * their classpath so that it shadows lock-core: a broken copy of a Lua script resource (scripts
 * are loaded as classpath resources), or a broken copy of a lock-core class compiled from its
 * source with {@code javax.tools}. lock-core itself is never touched.
 */
final class MutatedEngine {

    private final Path root;

    /** @param root where the directories of planted defects go (one per defect, recreated) */
    MutatedEngine(Path root) {
        this.root = root;
    }

    /**
     * @param defect the defect to plant
     * @return the directory to put before the workers' classpath
     */
    Path plant(PlantedDefect defect) {
        Path classes = root.resolve(defect.name()).resolve("classes");
        try {
            deleteRecursively(root.resolve(defect.name()));
            if (defect.inJava()) {
                Path source = root.resolve(defect.name()).resolve("src").resolve(defect.file());
                write(source, defect.plantIn(Files.readString(lockCoreSources().resolve(defect.file()))));
                compile(defect, source, classes);
            } else {
                write(classes.resolve(defect.file()), defect.plantIn(resource(defect.file())));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot plant " + defect, e);
        }
        return classes;
    }

    /** @return lock-core's Java sources, beside this module (Surefire runs tests in the module's directory) */
    private static Path lockCoreSources() {
        Path sources = Path.of(System.getProperty("basedir", ".")).resolve("../lock-core/src/main/java").normalize();
        if (!Files.isDirectory(sources)) {
            throw new IllegalStateException("lock-core's sources are not at " + sources.toAbsolutePath());
        }
        return sources;
    }

    /** @return the engine's copy of a resource, as the workers would load it */
    private static String resource(String path) throws IOException {
        try (InputStream in = LockClient.class.getResourceAsStream("/" + path)) {
            if (in == null) {
                throw new IllegalStateException("no resource " + path + " on the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static void compile(PlantedDefect defect, Path source, Path classes) throws IOException {
        Files.createDirectories(classes);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) {
            throw new IllegalStateException("Planted defect " + defect + " is Java: compiling it needs a JDK, not a JRE ("
                    + System.getProperty("java.home") + ")");
        }
        StringWriter messages = new StringWriter();
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        try (StandardJavaFileManager files = javac.getStandardFileManager(null, null, StandardCharsets.UTF_8)) {
            boolean compiled = javac.getTask(messages, files, null,
                    List.of("-d", classes.toString(), "-classpath", classpath, "-proc:none", "-nowarn"), null,
                    files.getJavaFileObjects(source)).call();
            if (!compiled) {
                throw new IllegalStateException("Planted defect " + defect + ": the broken " + defect.file()
                        + " does not compile:\n" + messages);
            }
        }
    }

    private static void write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}

package io.distlock.test;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM (same {@code java.home}, same test classpath) running a given main class, for tests that
 * need a second process, e.g. a lock holder that gets SIGKILLed.
 *
 * <p>Stdout and stderr are merged and drained by a daemon thread into a buffer ({@link #output()}).
 * The system property {@value RedisMode#PROPERTY} is passed on, so the child uses the same Redis mode.
 * The child never outlives this JVM: a shutdown hook kills it, and a small shell guardian SIGKILLs it
 * within about a second should this JVM itself be SIGKILLed. {@link #pid()} is the child JVM itself.
 */
public final class JavaProcess implements AutoCloseable {

    private static final int MAX_LINES = 20_000;
    private static final int MAX_INLINE_CLASSPATH = 32_000;

    private final String mainClass;
    private final GuardedProcess process;
    private final List<String> lines = new ArrayList<>();
    private long droppedLines;
    private boolean outputClosed;

    private JavaProcess(String mainClass, GuardedProcess process) {
        this.mainClass = mainClass;
        this.process = process;
    }

    /**
     * Starts {@code mainClass} in a new JVM.
     *
     * @param mainClass class with a {@code main} method, on the current classpath
     * @param args      program arguments
     * @return the started process; the caller closes it
     */
    public static JavaProcess start(Class<?> mainClass, String... args) {
        return start(mainClass.getName(), List.of(), List.of(args));
    }

    /**
     * Starts {@code mainClass} in a new JVM with extra JVM options (e.g. {@code -Dkey=value}).
     *
     * @param mainClass fully qualified name of a class on the current classpath
     * @param jvmArgs   options placed before the main class
     * @param args      program arguments
     * @return the started process; the caller closes it
     */
    public static JavaProcess start(String mainClass, List<String> jvmArgs, List<String> args) {
        return start(mainClass, List.of(), jvmArgs, args);
    }

    /**
     * Starts {@code mainClass} in a new JVM whose classpath begins with {@code classpathFirst}, so
     * that classes and resources there take the place of those of the same name on this JVM's
     * classpath (e.g. a deliberately broken copy of one class or script, for a mutation test).
     *
     * @param mainClass      fully qualified name of a class on the current classpath
     * @param classpathFirst directories or jars placed before the current classpath
     * @param jvmArgs        options placed before the main class
     * @param args           program arguments
     * @return the started process; the caller closes it
     */
    public static JavaProcess start(String mainClass, List<Path> classpathFirst, List<String> jvmArgs,
                                    List<String> args) {
        List<String> classpath = new ArrayList<>();
        classpathFirst.forEach(entry -> classpath.add(entry.toAbsolutePath().toString()));
        String current = System.getProperty("java.class.path", "");
        if (!current.isEmpty()) {
            classpath.add(current);
        }
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(classpathArgs(String.join(File.pathSeparator, classpath)));
        String mode = System.getProperty(RedisMode.PROPERTY);
        if (mode != null) {
            command.add("-D" + RedisMode.PROPERTY + "=" + mode);
        }
        command.addAll(jvmArgs);
        command.add(mainClass);
        command.addAll(args);
        GuardedProcess process = GuardedProcess.launch(command, null, null);
        JavaProcess child = new JavaProcess(mainClass, process);
        ShutdownReaper.register(child, process::killNow);
        Thread drainer = new Thread(child::drain, "distlock-java-" + process.pid());
        drainer.setDaemon(true);
        drainer.start();
        return child;
    }

    /**
     * Returns the OS process id of the child JVM.
     *
     * @return the pid
     */
    public long pid() {
        return process.pid();
    }

    /**
     * Returns whether the child JVM is still running.
     *
     * @return {@code true} if alive
     */
    public boolean isAlive() {
        return process.isAlive();
    }

    /**
     * Waits, bounded, for an output line containing {@code fragment} (lines printed earlier count too).
     *
     * @param fragment text the line must contain, e.g. {@code "LOCKED"}
     * @param timeout  upper bound on waiting
     * @return the first matching line
     * @throws IllegalStateException on timeout, or if the output ends without such a line; the message
     *                               contains the output so far
     */
    public String awaitLine(String fragment, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (lines) {
            long nextAbsolute = droppedLines; // absolute index of the next line to look at
            while (true) {
                for (int i = (int) Math.max(0, nextAbsolute - droppedLines); i < lines.size(); i++) {
                    if (lines.get(i).contains(fragment)) {
                        return lines.get(i);
                    }
                }
                nextAbsolute = droppedLines + lines.size();
                long remaining = deadline - System.nanoTime();
                if (outputClosed || remaining <= 0) {
                    String why = outputClosed ? "output ended (process " + exitDescription() + ")"
                            : "no such line within " + timeout;
                    throw new IllegalStateException("Child JVM " + mainClass + " (pid " + pid() + "): waiting for '"
                            + fragment + "': " + why + "\n--- output ---\n" + outputLocked());
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(lines, remaining);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("Interrupted while waiting for '" + fragment + "'", e);
                }
            }
        }
    }

    /**
     * Returns everything the child printed so far (stdout and stderr merged).
     *
     * @return the output
     */
    public String output() {
        synchronized (lines) {
            return outputLocked();
        }
    }

    /**
     * Writes one line to the child's stdin, e.g. a command for a helper main class.
     *
     * @param line text without line terminator
     * @throws UncheckedIOException if the child's stdin is closed
     */
    public void writeLine(String line) {
        try {
            OutputStream stdin = process.stdin();
            stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            stdin.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write to stdin of child JVM " + mainClass, e);
        }
    }

    /** Kills the child JVM with SIGKILL and waits, bounded, until it is gone. */
    public void kill() {
        process.killNow();
    }

    /**
     * Freezes the child JVM with SIGSTOP.
     *
     * @throws IllegalStateException if it is not running
     */
    public void pause() {
        if (!process.isAlive()) {
            throw new IllegalStateException("Cannot pause: child JVM " + mainClass + " is not running");
        }
        process.signal("STOP");
        Signals.awaitStopped(pid(), true, Duration.ofSeconds(2));
    }

    /** Unfreezes the child JVM with SIGCONT; does nothing if it is no longer running. */
    public void resume() {
        if (process.isAlive()) {
            process.signal("CONT");
            Signals.awaitStopped(pid(), false, Duration.ofSeconds(2));
        }
    }

    /**
     * Waits, bounded, for the child JVM to exit.
     *
     * @param timeout upper bound on waiting
     * @return the exit code, or empty if it is still running after {@code timeout}
     */
    public OptionalInt waitFor(Duration timeout) {
        return process.awaitExit(timeout) ? OptionalInt.of(process.exitValue()) : OptionalInt.empty();
    }

    /** Kills the child JVM if it is still alive; idempotent. */
    @Override
    public void close() {
        try {
            if (process.isAlive()) {
                kill();
            }
        } finally {
            ShutdownReaper.unregister(this);
        }
    }

    @Override
    public String toString() {
        return "JavaProcess[" + mainClass + ", pid " + pid() + ", " + exitDescription() + "]";
    }

    private void drain() {
        try (BufferedReader in = new BufferedReader(
                new InputStreamReader(process.stdout(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                synchronized (lines) {
                    if (lines.size() >= MAX_LINES) {
                        lines.remove(0);
                        droppedLines++;
                    }
                    lines.add(line);
                    lines.notifyAll();
                }
            }
        } catch (IOException e) {
            // stream closed because the process died: fall through
        } finally {
            synchronized (lines) {
                outputClosed = true;
                lines.notifyAll();
            }
        }
    }

    private String outputLocked() {
        String prefix = droppedLines > 0 ? "(" + droppedLines + " earlier lines dropped)\n" : "";
        return prefix + String.join("\n", lines);
    }

    private String exitDescription() {
        return process.isAlive() ? "running" : "exited with " + process.exitValue();
    }

    private static List<String> classpathArgs(String classpath) {
        if (classpath == null || classpath.isEmpty()) {
            return List.of();
        }
        if (classpath.length() <= MAX_INLINE_CLASSPATH) {
            return List.of("-cp", classpath);
        }
        try {
            Path argFile = Files.createTempFile("distlock-java-cp-", ".args");
            argFile.toFile().deleteOnExit();
            String escaped = classpath.replace("\\", "\\\\").replace("\"", "\\\"");
            Files.writeString(argFile, "-cp \"" + escaped + "\"\n", StandardCharsets.UTF_8);
            return List.of("@" + argFile);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write a JVM argument file for a long classpath", e);
        }
    }
}

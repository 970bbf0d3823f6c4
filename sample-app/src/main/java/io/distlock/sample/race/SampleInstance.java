package io.distlock.sample.race;

import io.distlock.sample.LocalPorts;
import io.distlock.sample.SampleApplication;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The sample application in a JVM of its own, on a free port, started from this JVM's class path
 * (the packaged jar, or Maven's test class path) and stopped like an operator stops it: SIGTERM,
 * so its shutdown hooks run, then SIGKILL if it does not end in time. It also ends by itself when
 * this JVM ends, however that happens ({@link ExitWithParent}).
 */
final class SampleInstance implements AutoCloseable {

    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

    private final String name;
    private final int port;
    private final Path log;
    private final Process process;

    private SampleInstance(String name, int port, Path log, Process process) {
        this.name = name;
        this.port = port;
        this.log = log;
        this.process = process;
    }

    /**
     * @param name      what to call it in messages
     * @param directory where its log goes
     * @param arguments Spring Boot arguments ({@code --key=value}) besides the port
     * @return the started JVM; call {@link #awaitReady} before using it
     */
    static SampleInstance start(String name, Path directory, List<String> arguments) {
        int port = LocalPorts.free();
        Path log = directory.resolve(name + ".log");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m", "-cp", System.getProperty("java.class.path"), mainClass(),
                "--server.port=" + port, "--" + ExitWithParent.PROPERTY + "=" + ProcessHandle.current().pid(),
                // Stopped when the race is over, or on Ctrl-C: no requests worth waiting for.
                "--server.shutdown=immediate"));
        command.addAll(arguments);
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            return new SampleInstance(name, port, log, process);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start " + name + ": " + command, e);
        }
    }

    /**
     * Waits until its health endpoint answers 200.
     *
     * @param timeout how long to wait
     * @throws IllegalStateException if it exited or did not get ready in time, with the end of its log
     */
    void awaitReady(Duration timeout) throws InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest health = HttpRequest.newBuilder(url().resolve("/actuator/health")).timeout(Duration.ofSeconds(5))
                .build();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with status " + process.exitValue() + "; its log ("
                        + log + ") ends with:\n" + logTail());
            }
            try {
                if (http.send(health, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException(name + " did not get ready within " + timeout + "; its log (" + log
                + ") ends with:\n" + logTail());
    }

    /** @return its base URL */
    URI url() {
        return URI.create("http://localhost:" + port);
    }

    /** @return its process */
    ProcessHandle process() {
        return process.toHandle();
    }

    /**
     * Stops it: SIGTERM, then SIGKILL after {@link #STOP_TIMEOUT}, to its own children first (an
     * embedded Redis), which its shutdown hooks would have stopped.
     */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        }
    }

    private String logTail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }

    // Packaged, the class path is the Spring Boot jar, whose own launcher finds the application's classes.
    private static String mainClass() {
        boolean packaged = SampleApplication.class.getClassLoader().getClass().getName()
                .startsWith("org.springframework.boot.loader");
        return packaged ? "org.springframework.boot.loader.launch.JarLauncher" : SampleApplication.class.getName();
    }
}

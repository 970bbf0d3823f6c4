package io.distlock.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** Sends POSIX signals to processes that are not necessarily children of this JVM. */
final class Signals {

    private Signals() {
    }

    /** Sends {@code signal} (e.g. {@code "STOP"}) with the shell's {@code kill} builtin, bounded to 5 s. */
    static void send(long pid, String signal) {
        try {
            Process kill = new ProcessBuilder("/bin/sh", "-c", "kill -" + signal + " \"$1\"", "distlock-kill",
                    Long.toString(pid)).redirectErrorStream(true).start();
            try {
                kill.getOutputStream().close();
                if (!kill.waitFor(5, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("kill -" + signal + " " + pid + " did not finish within 5 s");
                }
                if (kill.exitValue() != 0) {
                    String output = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                    throw new IllegalStateException("kill -" + signal + " " + pid + " failed: " + output.trim());
                }
            } finally {
                kill.destroyForcibly();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot run kill -" + signal + " " + pid, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while sending SIG" + signal + " to " + pid, e);
        }
    }

    /**
     * Waits (bounded) until the process is, or is no longer, in the stopped state; only where
     * {@code /proc} exists, elsewhere it returns at once.
     */
    static void awaitStopped(long pid, boolean stopped, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<Character> state = procState(pid);
            if (state.isEmpty() || isStoppedState(state.get()) == stopped) {
                return;
            }
            Sleeper.pause(5);
        }
    }

    /** The one-letter state from {@code /proc/<pid>/stat}, if readable. */
    static Optional<Character> procState(long pid) {
        Path stat = Paths.get("/proc", Long.toString(pid), "stat");
        try {
            String text = Files.readString(stat, StandardCharsets.UTF_8);
            int end = text.lastIndexOf(')');
            if (end < 0 || end + 2 >= text.length()) {
                return Optional.empty();
            }
            return Optional.of(text.charAt(end + 2));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    static boolean isStoppedState(char state) {
        return state == 'T' || state == 't';
    }
}

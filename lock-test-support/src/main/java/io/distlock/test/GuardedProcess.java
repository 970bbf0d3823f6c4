package io.distlock.test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A process launched under a small {@code sh} guardian that makes sure it never outlives this JVM.
 *
 * <p>The guardian starts the target in the background (stdin passed through; stdout and stderr merged
 * either into the guardian's stdout or appended to a log file), reports {@code pid <target pid>} on its
 * own stderr (then silences its stderr), and waits for the target. A watcher subshell checks every second that this JVM is alive
 * and still the guardian's parent; once it is not, the watcher SIGKILLs the target, and the guardian then
 * removes the optional cleanup directory. The guardian exits with the target's exit status right after
 * reaping it, so the guardian's exit is the reliable "target is gone" signal. Signals go to the target
 * pid itself, never to the guardian.
 */
final class GuardedProcess {

    private static final String SCRIPT = String.join("\n",
            "jvm=$1; log=$2; cleanup=$3; shift 3",
            "parent=$PPID",
            "exec 3<&0",
            "if [ \"$log\" = - ]; then",
            "  \"$@\" 0<&3 3<&- 2>&1 &",
            "else",
            "  \"$@\" 0<&3 3<&- >>\"$log\" 2>&1 &",
            "fi",
            "child=$!",
            "exec 3<&-",
            "echo \"pid $child\" >&2",
            "exec 2>/dev/null", // 'Killed' notices must not hit a dead JVM's pipe (SIGPIPE)
            "jvm_alive() {",
            "  kill -0 \"$jvm\" 2>/dev/null || return 1",
            "  if [ -r /proc/$$/stat ]; then",
            "    read -r stat < /proc/$$/stat || return 0",
            "    set -- ${stat##*) }",
            "    [ \"$2\" = \"$parent\" ] || return 1",
            "  fi",
            "  return 0",
            "}",
            "(",
            "  trap 'kill \"$nap\" 2>/dev/null; exit 0' TERM",
            "  while jvm_alive; do sleep 1 & nap=$!; wait \"$nap\"; done",
            "  kill -9 \"$child\" 2>/dev/null",
            ") </dev/null >/dev/null 2>&1 &",
            "watcher=$!",
            "wait \"$child\"; rc=$?",
            "kill \"$watcher\" 2>/dev/null",
            "if [ \"$cleanup\" != - ] && ! jvm_alive; then",
            "  case \"$cleanup\" in */distlock-*) rm -rf \"$cleanup\" ;; esac",
            "fi",
            "exit $rc",
            "");

    private final Process guardian;
    private final long pid;
    private final List<String> guardianOutput;

    private GuardedProcess(Process guardian, long pid, List<String> guardianOutput) {
        this.guardian = guardian;
        this.pid = pid;
        this.guardianOutput = guardianOutput;
    }

    /**
     * Launches {@code command} under a guardian and waits (bounded) for its pid.
     *
     * @param log        file the target's output is appended to, or {@code null} to read it from {@link #stdout()}
     * @param cleanupDir directory (name containing {@code distlock-}) deleted if this JVM dies, or {@code null}
     */
    static GuardedProcess launch(List<String> command, Path log, Path cleanupDir) {
        List<String> full = new ArrayList<>(List.of("/bin/sh", "-c", SCRIPT, "distlock-guardian",
                Long.toString(ProcessHandle.current().pid()),
                log == null ? "-" : log.toString(),
                cleanupDir == null ? "-" : cleanupDir.toString()));
        full.addAll(command);
        Process guardian;
        try {
            guardian = new ProcessBuilder(full).start();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot launch " + command.get(0), e);
        }
        List<String> output = new ArrayList<>();
        CompletableFuture<Long> pidFuture = new CompletableFuture<>();
        Thread reader = new Thread(() -> drainStderr(guardian, output, pidFuture),
                "distlock-guardian-" + guardian.pid());
        reader.setDaemon(true);
        reader.start();
        try {
            return new GuardedProcess(guardian, pidFuture.get(10, TimeUnit.SECONDS), output);
        } catch (ExecutionException | TimeoutException e) {
            guardian.destroyForcibly();
            throw new IllegalStateException("Guardian of " + command.get(0) + " did not report a pid; output: "
                    + snapshot(output), e);
        } catch (InterruptedException e) {
            guardian.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while launching " + command.get(0), e);
        }
    }

    private static void drainStderr(Process guardian, List<String> output, CompletableFuture<Long> pidFuture) {
        try (BufferedReader in = new BufferedReader(
                new InputStreamReader(guardian.getErrorStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                if (!pidFuture.isDone() && line.startsWith("pid ")) {
                    pidFuture.complete(Long.parseLong(line.substring(4).trim()));
                } else {
                    synchronized (output) {
                        output.add(line);
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            pidFuture.completeExceptionally(e);
        }
        pidFuture.completeExceptionally(new IllegalStateException("guardian exited"));
    }

    private static String snapshot(List<String> output) {
        synchronized (output) {
            return String.join("\n", output);
        }
    }

    long pid() {
        return pid;
    }

    /** The target's merged stdout/stderr when launched without a log file. */
    InputStream stdout() {
        return guardian.getInputStream();
    }

    /** The target's stdin. */
    OutputStream stdin() {
        return guardian.getOutputStream();
    }

    /** Whether the target has not yet been reaped (the guardian exits right after reaping it). */
    boolean isAlive() {
        return guardian.isAlive();
    }

    /** The target's exit status ({@code 128 + n} if killed by signal {@code n}); only after it exited. */
    int exitValue() {
        return guardian.exitValue();
    }

    /** Sends a signal such as {@code "STOP"} to the target if it has not been reaped yet. */
    void signal(String signal) {
        if (!guardian.isAlive()) {
            return;
        }
        try {
            Signals.send(pid, signal);
        } catch (IllegalStateException e) {
            if (awaitExit(Duration.ofMillis(500))) {
                return; // the target exited on its own just before the signal
            }
            throw e;
        }
    }

    /** Waits, bounded, until the target has exited and been reaped. */
    boolean awaitExit(Duration timeout) {
        try {
            return guardian.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !guardian.isAlive();
        }
    }

    /** SIGKILLs the target and, should it still linger, the guardian; bounded. */
    void killNow() {
        if (!guardian.isAlive()) {
            return;
        }
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        if (!awaitExit(Duration.ofSeconds(5))) {
            guardian.destroyForcibly();
            awaitExit(Duration.ofSeconds(2));
        }
    }

    /** What the guardian itself printed besides the pid (not the target's output), for error messages. */
    String guardianOutput() {
        return snapshot(guardianOutput);
    }
}

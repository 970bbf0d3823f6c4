package io.distlock.faults.checker;

import io.distlock.core.LockClient;
import io.distlock.core.LockException;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A worker JVM of the randomized checker: several threads run their seeded schedules against the
 * Redis under test (through two clients, one behind the fault proxy) and the three RedLock
 * masters, and every operation goes to this worker's history file.
 *
 * <p>Arguments: the {@link CheckerSettings} arguments, worker index, history file, URI of the Redis
 * under test, URI of the proxy in front of it, URIs of the three RedLock masters. Prints
 * {@code READY}; waits for {@code GO <parent nanoTime>} on stdin and answers
 * {@code CLOCK sent=<parent's> received=<own nanoTime>}, so the parent can check that both JVMs
 * read one clock; runs until the budget ends, waits (bounded) for the last operations, writes
 * operations still running as unfinished (with their threads' stacks on stdout), and prints
 * {@code DONE operations=<n> unfinished=<n>}.
 */
public final class CheckerWorkerMain {

    private static final int CONNECT_ATTEMPTS = 5;

    private CheckerWorkerMain() {
    }

    public static void main(String[] args) throws Exception {
        int at = CheckerSettings.ARGS;
        CheckerSettings settings = CheckerSettings.fromArgs(List.of(args).subList(0, at));
        int worker = Integer.parseInt(args[at]);
        Path historyFile = Path.of(args[at + 1]);
        LibraryReports reports = new LibraryReports();
        List<LockClient> main = List.of(client(args[at + 2], reports), client(args[at + 3], reports));
        List<LockClient> masters = List.of(client(args[at + 4], reports), client(args[at + 5], reports),
                client(args[at + 6], reports));
        WorkerLocks locks = new WorkerLocks(main, masters);
        ScheduledExecutorService timer = Executors.newScheduledThreadPool(1, runnable -> {
            Thread thread = new Thread(runnable, "checker-timer");
            thread.setDaemon(true);
            return thread;
        });
        HistoryWriter history = new HistoryWriter(historyFile);

        System.out.println("READY");
        System.out.flush();
        String go = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        long received = System.nanoTime();
        if (go == null || !go.startsWith("GO ")) {
            throw new IllegalStateException("expected GO <nanoTime> on stdin, got " + go);
        }
        System.out.println("CLOCK sent=" + go.substring(3).trim() + " received=" + received);
        System.out.flush();

        long deadline = received + TimeUnit.SECONDS.toNanos(settings.seconds());
        List<OperationRunner> runners = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < settings.threads(); t++) {
            OperationRunner runner = new OperationRunner(settings, worker, t, locks, reports, history, timer,
                    deadline);
            Thread thread = new Thread(runner, "checker-w" + worker + "-t" + t);
            thread.setDaemon(true);
            runners.add(runner);
            threads.add(thread);
            thread.start();
        }
        long drainEnd = deadline + settings.drainTimeout().toNanos();
        int unfinished = 0;
        for (int t = 0; t < threads.size(); t++) {
            threads.get(t).join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(drainEnd - System.nanoTime())));
            OpRecord stuck = threads.get(t).isAlive() ? runners.get(t).unfinished() : null;
            if (stuck != null) {
                unfinished++;
                history.append(stuck);
                printStack(threads.get(t), stuck);
            }
        }
        history.close();
        closeAll(main, masters);
        System.out.println("DONE operations=" + history.written() + " unfinished=" + unfinished);
        System.out.flush();
        System.exit(0);  // threads still stuck in the library must not keep the JVM
    }

    /**
     * A client of the workers' settings. The connection handshake is bounded by the short command
     * timeout, which a machine under heavy load can miss: a few more tries, before any load.
     */
    private static LockClient client(String uri, LibraryReports reports) {
        for (int attempt = 1; ; attempt++) {
            try {
                return LockClient.builder()
                        .redisUri(uri)
                        .watchdogTimeout(CheckerSettings.WATCHDOG)
                        .commandTimeout(CheckerSettings.COMMAND_TIMEOUT)
                        .listener(reports)
                        .build();
            } catch (LockException e) {
                if (attempt == CONNECT_ATTEMPTS) {
                    throw e;
                }
                System.out.println("connecting to " + uri + " failed (" + e.getMessage() + "); trying again");
            }
        }
    }

    private static void printStack(Thread thread, OpRecord stuck) {
        StringBuilder text = new StringBuilder("STUCK " + stuck.id() + " " + stuck.detail() + "\n");
        for (StackTraceElement frame : thread.getStackTrace()) {
            text.append("    at ").append(frame).append('\n');
        }
        System.out.print(text);
    }

    /** Closes the clients, each on its own daemon thread, waiting at most 20 s in all. */
    private static void closeAll(List<LockClient> main, List<LockClient> masters) throws InterruptedException {
        List<Thread> closers = new ArrayList<>();
        for (List<LockClient> clients : List.of(main, masters)) {
            for (LockClient client : clients) {
                Thread closer = new Thread(client::close, "checker-close");
                closer.setDaemon(true);
                closer.start();
                closers.add(closer);
            }
        }
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        for (Thread closer : closers) {
            closer.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime())));
            if (closer.isAlive()) {
                System.out.println("a LockClient did not close within 20 s");
            }
        }
    }
}

package io.distlock.faults.checker;

import io.distlock.core.LockClient;
import io.distlock.core.ReplyDroppingProxy;
import io.distlock.test.JavaProcess;
import io.distlock.test.RedisServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;

/**
 * One run of the randomized checker: starts the worker JVMs, checks they share the parent's clock,
 * lets them run their schedules while the {@link FaultInjector} works, waits for every lease and
 * fair-lock queue deadline to pass, reports holds and waiting-room keys left in Redis
 * ({@code LEFTOVER_HOLD}, {@code LEFTOVER_QUEUE}), and hands the histories to the {@link HistoryChecker}.
 * Every wait is bounded; the workers are killed at the end whatever happened.
 */
final class CheckerRun {

    private final CheckerSettings settings;
    private final List<RedisServer> servers;
    private final Path historyDir;
    private final List<Path> workerClasspathFirst;

    /**
     * @param settings   what to run
     * @param servers    the Redis under test first, then two more: the three RedLock masters
     * @param historyDir where the workers write their histories (kept after the run)
     */
    CheckerRun(CheckerSettings settings, List<RedisServer> servers, Path historyDir) {
        this(settings, servers, historyDir, List.of());
    }

    /**
     * @param settings             what to run
     * @param servers              the Redis under test first, then two more: the three RedLock masters
     * @param historyDir           where the workers write their histories (kept after the run)
     * @param workerClasspathFirst put before the workers' classpath: classes and scripts there
     *                             replace the engine's (a planted defect)
     */
    CheckerRun(CheckerSettings settings, List<RedisServer> servers, Path historyDir, List<Path> workerClasspathFirst) {
        this.settings = settings;
        this.servers = servers;
        this.historyDir = historyDir;
        this.workerClasspathFirst = List.copyOf(workerClasspathFirst);
    }

    /**
     * @return the report
     * @throws InterruptedException if interrupted
     */
    CheckReport run() throws InterruptedException {
        RedisServer redis = servers.get(0);
        createDirectories();
        List<JavaProcess> workers = new ArrayList<>();
        List<FaultRecord> faults;
        long runStart;
        try (ReplyDroppingProxy proxy = new ReplyDroppingProxy(redis.host(), redis.port())) {
            try {
                for (int w = 0; w < settings.workers(); w++) {
                    workers.add(JavaProcess.start(CheckerWorkerMain.class.getName(), workerClasspathFirst,
                            List.of("-Xmx256m"), workerArgs(w, proxy)));
                }
                for (JavaProcess worker : workers) {
                    worker.awaitLine("READY", Duration.ofSeconds(60));
                }
                runStart = System.nanoTime();
                for (JavaProcess worker : workers) {
                    checkSharedClock(worker);
                }
                FaultInjector injector = new FaultInjector(settings.seed(), servers, proxy, workers);
                if (settings.faults()) {
                    injector.run(runStart + TimeUnit.SECONDS.toNanos(settings.seconds()));
                }
                faults = injector.applied();
                Duration doneWithin = Duration.ofSeconds(settings.seconds() + 90).plus(settings.drainTimeout());
                for (JavaProcess worker : workers) {
                    String done = worker.awaitLine("DONE", doneWithin);
                    System.out.println("worker pid " + worker.pid() + ": " + done);
                    OptionalInt exit = worker.waitFor(Duration.ofSeconds(30));
                    if (exit.isEmpty() || exit.getAsInt() != 0) {
                        throw new IllegalStateException("worker did not exit cleanly (" + exit + "); output:\n"
                                + worker.output());
                    }
                    printStuck(worker);
                }
            } finally {
                workers.forEach(JavaProcess::close);
            }
        }
        // every lease and every fair-lock queue deadline (a sleep until a lease ends, plus a slot) has passed
        Thread.sleep(CheckerSettings.MAX_LEASE_MS + LockClient.DEFAULT_FAIR_SLOT_TIMEOUT.toMillis() + 1_000);
        LeftoverHolds leftovers = LeftoverHolds.scan(servers);
        List<OpRecord> ops = readHistories();
        HistoryChecker checker = new HistoryChecker(ops, faults);
        checker.check();
        List<Finding> violations = new ArrayList<>(checker.violations());
        leftovers.holds().forEach(hold -> violations.add(new Finding("LEFTOVER_HOLD",
                "still in Redis after every client closed and every lease passed: " + hold, List.of())));
        leftovers.waitingRoom().forEach(key -> violations.add(new Finding("LEFTOVER_QUEUE",
                "a fair lock's waiting-room key still in Redis after every client closed and every queue deadline "
                        + "passed: " + key, List.of())));
        return new CheckReport(settings, ops, faults, violations, checker.excused(), checker.fairPairsJudged(), leftovers,
                new HistoryExcerpt(ops, faults, runStart));
    }

    /**
     * Sends {@code GO <now>}; the worker answers with its own reading of {@link System#nanoTime()}
     * on receipt, which must lie between our send and our receipt of the answer. Otherwise times
     * of different JVMs would not compare, and the oracle would judge nonsense.
     */
    private static void checkSharedClock(JavaProcess worker) {
        long sent = System.nanoTime();
        worker.writeLine("GO " + sent);
        String clock = worker.awaitLine("CLOCK", Duration.ofSeconds(30));
        long answered = System.nanoTime();
        long received = Long.parseLong(clock.substring(clock.indexOf("received=") + "received=".length()).trim());
        if (!clock.contains("sent=" + sent + " ") || received < sent || received > answered) {
            throw new IllegalStateException("The worker JVMs do not share the parent's monotonic clock: sent " + sent
                    + ", worker read " + received + ", answer seen at " + answered + " (" + clock + ")");
        }
    }

    private List<String> workerArgs(int worker, ReplyDroppingProxy proxy) {
        List<String> args = settings.toArgs();
        args.add(Integer.toString(worker));
        args.add(historyFile(worker).toString());
        args.add(servers.get(0).uri());
        args.add(proxy.uri());
        for (int i = 0; i < 3; i++) {
            args.add(servers.get(i).uri());
        }
        return args;
    }

    private Path historyFile(int worker) {
        return historyDir.resolve("worker-" + worker + ".history");
    }

    private List<OpRecord> readHistories() {
        List<OpRecord> ops = new ArrayList<>();
        for (int w = 0; w < settings.workers(); w++) {
            try {
                Files.readAllLines(historyFile(w), StandardCharsets.UTF_8).stream().map(OpRecord::parse)
                        .filter(Objects::nonNull).forEach(ops::add);
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot read the history of worker " + w, e);
            }
        }
        return ops;
    }

    private static void printStuck(JavaProcess worker) {
        String output = worker.output();
        if (output.contains("STUCK ")) {
            System.out.println("worker pid " + worker.pid() + " had operations that never returned:\n" + output);
        }
    }

    private void createDirectories() {
        try {
            Files.createDirectories(historyDir);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create " + historyDir, e);
        }
    }
}

package io.distlock.benchmarks;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;

/**
 * One benchmark run: connects a raw Lettuce connection to one Redis, then, with a distlock and a
 * Redisson client closed once they are done, runs each selected throughput scenario for the
 * configured number of rounds, then the
 * watchdog scenario if selected ({@link WatchdogRun}, with clients of its own), and last the
 * processes scenario if selected ({@link ProcessRun}, in child JVMs). A round measures
 * distlock, then Redisson, then the EVALSHA ceiling with the scenario's thread count, back to back, so that the
 * three see the same machine speed. Every measurement is preceded by a warm-up of the same load,
 * and the run's keys are deleted after each warm-up and each measurement. Everything is closed at
 * the end, also on failure.
 */
final class BenchmarkRun {

    private final BenchmarkOptions options;
    private final PrintStream progress;
    private final String keyNamespace = "lockbench:" + UUID.randomUUID().toString().substring(0, 8) + ":";
    private final long startNanos = System.nanoTime();

    /**
     * @param options  what to run
     * @param progress where to report progress, one line per measurement
     */
    BenchmarkRun(BenchmarkOptions options, PrintStream progress) {
        this.options = options;
        this.progress = progress;
    }

    /**
     * @return the measurements
     * @throws InterruptedException  if the calling thread is interrupted
     * @throws IllegalStateException if a measurement failed
     */
    BenchmarkReport execute() throws InterruptedException {
        try (RedisTarget target = RedisTarget.open(options.redisUri());
             RedisAdmin admin = RedisAdmin.connect(target.uri())) {
            Environment environment = Environment.current(admin.serverVersion(), target.description(), options);
            List<ScenarioResult> results = throughput(target, admin);
            Optional<WatchdogResult> watchdog = Optional.empty();
            if (options.scenarios().contains(Scenario.WATCHDOG)) {
                watchdog = Optional.of(new WatchdogRun(options.watchdog(), options.rounds(), target.uri(), admin,
                        target.startedForRun(), keyNamespace, this::report).execute());
            }
            Optional<ProcessResult> processes = Optional.empty();
            if (options.scenarios().contains(Scenario.PROCESSES)) {
                processes = Optional.of(new ProcessRun(options.processes(), options.rounds(), options.measurement(),
                        target.uri(), admin, keyNamespace, this::report).execute());
            }
            return new BenchmarkReport(environment, List.copyOf(results), watchdog, processes);
        }
    }

    /**
     * Runs the selected throughput scenarios with one distlock and one Redisson client, closed
     * before the other scenarios start: the watchdog scenario measures the whole JVM's CPU, and an
     * idle Redisson client alone costs about 0.35 s of it a minute (its timer thread).
     *
     * @return the throughput scenarios' results, in order; empty if none was selected
     */
    private List<ScenarioResult> throughput(RedisTarget target, RedisAdmin admin) throws InterruptedException {
        List<ScenarioResult> results = new ArrayList<>();
        if (options.scenarios().stream().noneMatch(Scenario::throughput)) {
            return results;
        }
        try (LockBackend distlock = DistlockBackend.connect(target.uri(), keyNamespace + "distlock:");
             LockBackend redisson = RedissonBackend.connect(target.uri(), keyNamespace + "redisson:",
                     options.threads())) {
            ScriptCeiling ceiling = ScriptCeiling.load(admin.commands());
            for (Scenario scenario : options.scenarios()) {
                if (!scenario.throughput()) {
                    continue;
                }
                int threads = scenario.threads(options.threads());
                TimedLoad.StepFactory ours = scenario.steps(distlock);
                TimedLoad.StepFactory theirs = scenario.steps(redisson);
                List<RoundResult> rounds = new ArrayList<>(options.rounds());
                for (int round = 1; round <= options.rounds(); round++) {
                    String load = scenario.cliName() + "-r" + round;
                    Measurement distlockRound = measure(admin, load, distlock.name(), threads, ours);
                    Measurement redissonRound = measure(admin, load, redisson.name(), threads, theirs);
                    Measurement ceilingRound = measure(admin, load, "ceiling", threads, ceiling.steps());
                    rounds.add(new RoundResult(distlockRound, redissonRound, ceilingRound));
                }
                results.add(new ScenarioResult(scenario, threads, List.copyOf(rounds)));
            }
        }
        return results;
    }

    private Measurement measure(RedisAdmin admin, String load, String subject, int threads,
                                TimedLoad.StepFactory steps) throws InterruptedException {
        String label = load + "-" + subject;
        if (!options.warmup().isZero()) {
            TimedLoad.run(label + "-warmup", threads, options.warmup(), steps);
            admin.deleteKeys(keyNamespace + "*");
        }
        Measurement measurement = TimedLoad.run(label, threads, options.measurement(), steps);
        admin.deleteKeys(keyNamespace + "*");
        report(String.format(Locale.ROOT, "%-15s %-9s threads=%-3d %,12.0f ops/s over %.2f s", load, subject,
                threads, measurement.perSecond(), measurement.elapsedNanos() / 1e9));
        return measurement;
    }

    /** Prints one progress line, after the time since the run started. */
    private void report(String line) {
        progress.printf(Locale.ROOT, "[%5.1f s] %s%n",
                Duration.ofNanos(System.nanoTime() - startNanos).toMillis() / 1000.0, line);
    }
}

package io.distlock.benchmarks;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * One benchmark run: connects distlock, Redisson and a raw Lettuce connection to one Redis, then
 * for each selected scenario measures distlock, then Redisson, then (once per thread count) the
 * EVALSHA ceiling. Every measurement is preceded by a warm-up of the same load, and the run's keys
 * are deleted after each warm-up and each measurement. Everything is closed at the end, also on
 * failure.
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
             RedisAdmin admin = RedisAdmin.connect(target.uri());
             LockBackend distlock = DistlockBackend.connect(target.uri(), keyNamespace + "distlock:");
             LockBackend redisson = RedissonBackend.connect(target.uri(), keyNamespace + "redisson:",
                     options.threads())) {
            Environment environment = Environment.current(admin.serverVersion(), target.description(), options);
            ScriptCeiling ceiling = ScriptCeiling.load(admin.commands());
            Map<Integer, Measurement> ceilings = new HashMap<>();
            List<ScenarioResult> results = new ArrayList<>();
            for (Scenario scenario : options.scenarios()) {
                int threads = scenario.threads(options.threads());
                Measurement ours = measure(admin, scenario.cliName(), distlock.name(), threads,
                        scenario.steps(distlock));
                Measurement theirs = measure(admin, scenario.cliName(), redisson.name(), threads,
                        scenario.steps(redisson));
                if (!ceilings.containsKey(threads)) {
                    ceilings.put(threads, measure(admin, threads + "-thread", "ceiling", threads, ceiling.steps()));
                }
                results.add(new ScenarioResult(scenario, threads, ours, theirs, ceilings.get(threads)));
            }
            return new BenchmarkReport(environment, List.copyOf(results));
        }
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
        progress.printf(Locale.ROOT, "[%5.1f s] %-12s %-9s threads=%-3d %,12.0f ops/s over %.2f s%n",
                Duration.ofNanos(System.nanoTime() - startNanos).toMillis() / 1000.0, load, subject, threads,
                measurement.perSecond(), measurement.elapsedNanos() / 1e9);
        return measurement;
    }
}

package io.distlock.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * The {@link Scenario#PROCESSES} scenario: N child JVMs of T threads each contend for one lock
 * name, then for {@value #SPREAD_NAMES} names, as several instances of a service would. Unlike the
 * contended scenario, which runs in one JVM where local hand-offs make every acquisition cheap,
 * this shows how the lock moves between processes. Each round measures distlock, then Redisson,
 * back to back, on the same Redis; the run's keys are deleted after each load.
 */
final class ProcessRun {

    /** Lock names of the spread case. */
    static final int SPREAD_NAMES = 8;

    private final ProcessOptions options;
    private final int rounds;
    private final Duration measurement;
    private final String redisUri;
    private final RedisAdmin admin;
    private final String keyNamespace;
    private final Consumer<String> progress;

    /**
     * @param options      the child JVM shape and warm-up
     * @param rounds       rounds per case
     * @param measurement  length of each window
     * @param redisUri     the Redis to use
     * @param admin        the benchmark's own connection to it
     * @param keyNamespace prefix of every key of this run
     * @param progress     receives one line per load
     */
    ProcessRun(ProcessOptions options, int rounds, Duration measurement, String redisUri, RedisAdmin admin,
               String keyNamespace, Consumer<String> progress) {
        this.options = options;
        this.rounds = rounds;
        this.measurement = measurement;
        this.redisUri = redisUri;
        this.admin = admin;
        this.keyNamespace = keyNamespace;
        this.progress = progress;
    }

    /** @return both backends' measurements of both cases */
    ProcessResult execute() {
        List<ProcessCase> cases = new ArrayList<>();
        for (int names : new int[] {1, SPREAD_NAMES}) {
            List<ProcessRound> measured = new ArrayList<>(rounds);
            for (int round = 1; round <= rounds; round++) {
                measured.add(new ProcessRound(measure("distlock", names, round), measure("redisson", names, round)));
            }
            cases.add(new ProcessCase(names, List.copyOf(measured)));
        }
        return new ProcessResult(options, List.copyOf(cases));
    }

    private ProcessMeasurement measure(String backend, int names, int round) {
        String prefix = keyNamespace + "processes-" + names + "-r" + round + "-" + backend + ":";
        try {
            ProcessMeasurement measured = ProcessLoad.run(backend, redisUri, prefix, options, names, measurement);
            progress.accept(String.format(Locale.ROOT, "processes-%d-r%d %-9s %dx%d threads %,10.0f acq/s, "
                            + "%,7.0f to another JVM/s, longest streak %,d, p99 %.2f ms, max %.1f ms", names, round,
                    backend, options.processes(), options.threads(), measured.acquisitionsPerSecond(),
                    measured.crossHandOffsPerSecond(), measured.longestStreak(), measured.p99WaitMillis(),
                    measured.maxWaitMillis()));
            return measured;
        } finally {
            admin.deleteKeys(prefix + "*");
        }
    }
}

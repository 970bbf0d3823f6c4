package io.distlock.benchmarks;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * Command line options of {@link LockBenchmark}, parsed from {@code --key=value} arguments.
 *
 * @param redisUri    the Redis to use; empty starts a local redis-server for the run
 * @param threads     threads of the multi-threaded scenarios
 * @param rounds      rounds per scenario; each measures distlock, Redisson and the ceiling once
 * @param warmup      warm-up before every measurement of every round; zero skips it
 * @param measurement length of each measurement
 * @param scenarios   the scenarios to run, in their declaration order
 * @param watchdog    size of the watchdog scenario
 * @param processes   shape of the processes scenario
 * @param reportDir   where the HTML report and its charts are written ({@link ReportDirectory})
 */
public record BenchmarkOptions(Optional<String> redisUri, int threads, int rounds, Duration warmup,
                               Duration measurement, Set<Scenario> scenarios, WatchdogOptions watchdog,
                               ProcessOptions processes, Path reportDir) {

    /**
     * Where the HTML report goes unless {@code --report-dir} says otherwise: relative to the working
     * directory, so the module's build directory when the jar is run from the repository root.
     */
    public static final Path DEFAULT_REPORT_DIR = Path.of("lock-benchmarks", "target", "benchmark-report");

    /** Text printed by {@code --help}. */
    public static final String HELP = String.join(System.lineSeparator(),
            "Usage: java -jar lock-benchmarks/target/lock-benchmarks.jar [--key=value ...]",
            "",
            "Compares distlock with Redisson on one Redis, next to the raw EVALSHA ceiling of that Redis.",
            "",
            "Options:",
            "  --redis-uri=URI        Redis to use, e.g. redis://127.0.0.1:6379 (only keys of this run are",
            "                         created and deleted). Default: start a local redis-server for the run.",
            "  --threads=N            threads of every scenario but single (default 16)",
            "  --rounds=N             rounds per scenario (default 3). Each round measures distlock, then Redisson,",
            "                         then the ceiling with the same thread count, back to back; the report gives",
            "                         per-round ratios and their median over the rounds.",
            "  --warmup-seconds=S     warm-up before every measurement of every round (not only the first round),",
            "                         fractions allowed, 0 = none (default 2)",
            "  --seconds=S            length of each measurement, fractions allowed, e.g. 0.5 (default 5)",
            "  --scenarios=LIST       comma-separated subset of uncontended,contended,fair,read,multi,semaphore,",
            "                         single,watchdog,processes (default all)",
            "  --watchdog-locks=N     watchdog scenario: locks one client acquires and holds (default 20000)",
            "  --watchdog-seconds=S   watchdog scenario: how long it holds them, at least the timeout (default 60)",
            "  --watchdog-timeout-seconds=S",
            "                         watchdog scenario: watchdog timeout of both clients, renewed every third",
            "                         of it, at least 0.1 (default 3)",
            "  --watchdog-renewal-listener=true|false",
            "                         watchdog scenario: distlock's client also counts renewals with a listener,",
            "                         as the starter's meters do: one event per renewal (default false)",
            "  --processes=N          processes scenario: child JVMs contending for the same locks, at least 2",
            "                         (default 3)",
            "  --process-threads=T    processes scenario: threads in each child JVM (default 4)",
            "  --process-warmup-seconds=S",
            "                         processes scenario: how long the fresh child JVMs run before each",
            "                         measurement (default 6; --warmup-seconds does not apply to them)",
            "  --report-dir=DIR       where the HTML report with charts goes: DIR/index.html and one DIR/<chart>.svg",
            "                         per chart; created if missing, files of the same names replaced (default",
            "                         lock-benchmarks/target/benchmark-report, relative to the working directory)",
            "  --help                 print this text",
            "",
            "A throughput scenario takes about rounds x 3 measurements x (warm-up + measurement) seconds; with",
            "the defaults 3 x 3 x 7 s, so the six take a little over 6 minutes. The watchdog scenario runs an",
            "unmeasured warm-up pass of each client, then --rounds rounds rounded up to an even number",
            "(--threads does not apply), each measuring both clients, distlock first in odd rounds and Redisson",
            "first in even ones, each acquiring the locks from one thread and holding them for",
            "--watchdog-seconds; its CPU target is the median of the per-round ratios; with the defaults",
            "4 rounds, about 10 minutes. The processes",
            "scenario runs --rounds rounds of one lock name and of 8 names, each measuring distlock, then Redisson,",
            "in fresh child JVMs (start, warm-up, measurement); with the defaults about 4 minutes.",
            "");

    /** @return the options when none are given */
    public static BenchmarkOptions defaults() {
        return new BenchmarkOptions(Optional.empty(), 16, 3, Duration.ofSeconds(2), Duration.ofSeconds(5),
                EnumSet.allOf(Scenario.class), WatchdogOptions.defaults(), ProcessOptions.defaults(),
                DEFAULT_REPORT_DIR);
    }

    /**
     * @param args command line arguments
     * @return whether {@code --help} is among them
     */
    public static boolean helpRequested(String... args) {
        return Arrays.asList(args).contains("--help");
    }

    /**
     * @param args {@code --key=value} arguments
     * @return the options, defaults for those not given
     * @throws IllegalArgumentException on an unknown option or a bad value
     */
    public static BenchmarkOptions parse(String... args) {
        BenchmarkOptions options = defaults();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (!arg.startsWith("--") || eq < 0) {
                throw new IllegalArgumentException("expected --key=value, got '" + arg + "'");
            }
            options = options.with(arg.substring(2, eq), arg.substring(eq + 1));
        }
        options.watchdog().checked();
        options.processes().checked();
        return options;
    }

    private BenchmarkOptions with(String key, String value) {
        return switch (key) {
            case "redis-uri" -> {
                if (value.isBlank()) {
                    throw new IllegalArgumentException("--redis-uri must not be empty");
                }
                yield new BenchmarkOptions(Optional.of(value), threads, rounds, warmup, measurement, scenarios,
                        watchdog, processes, reportDir);
            }
            case "threads" -> new BenchmarkOptions(redisUri, positiveInt(key, value), rounds, warmup, measurement,
                    scenarios, watchdog, processes, reportDir);
            case "rounds" -> new BenchmarkOptions(redisUri, threads, positiveInt(key, value), warmup, measurement,
                    scenarios, watchdog, processes, reportDir);
            case "warmup-seconds" -> new BenchmarkOptions(redisUri, threads, rounds, seconds(key, value, true),
                    measurement, scenarios, watchdog, processes, reportDir);
            case "seconds" -> new BenchmarkOptions(redisUri, threads, rounds, warmup, seconds(key, value, false),
                    scenarios, watchdog, processes, reportDir);
            case "scenarios" -> new BenchmarkOptions(redisUri, threads, rounds, warmup, measurement,
                    scenarioList(value), watchdog, processes, reportDir);
            case "watchdog-locks" -> withWatchdog(new WatchdogOptions(positiveInt(key, value), watchdog.hold(),
                    watchdog.timeout(), watchdog.renewalListener()));
            case "watchdog-seconds" -> withWatchdog(new WatchdogOptions(watchdog.locks(), seconds(key, value, false),
                    watchdog.timeout(), watchdog.renewalListener()));
            case "watchdog-timeout-seconds" -> withWatchdog(new WatchdogOptions(watchdog.locks(), watchdog.hold(),
                    seconds(key, value, false), watchdog.renewalListener()));
            case "watchdog-renewal-listener" -> withWatchdog(new WatchdogOptions(watchdog.locks(), watchdog.hold(),
                    watchdog.timeout(), bool(key, value)));
            case "processes" -> withProcesses(new ProcessOptions(positiveInt(key, value), processes.threads(),
                    processes.warmup()));
            case "process-threads" -> withProcesses(new ProcessOptions(processes.processes(), positiveInt(key, value),
                    processes.warmup()));
            case "process-warmup-seconds" -> withProcesses(new ProcessOptions(processes.processes(),
                    processes.threads(), seconds(key, value, true)));
            case "report-dir" -> new BenchmarkOptions(redisUri, threads, rounds, warmup, measurement, scenarios,
                    watchdog, processes, directory(key, value));
            default -> throw new IllegalArgumentException("unknown option --" + key);
        };
    }

    private BenchmarkOptions withWatchdog(WatchdogOptions changed) {
        return new BenchmarkOptions(redisUri, threads, rounds, warmup, measurement, scenarios, changed, processes,
                reportDir);
    }

    private BenchmarkOptions withProcesses(ProcessOptions changed) {
        return new BenchmarkOptions(redisUri, threads, rounds, warmup, measurement, scenarios, watchdog, changed,
                reportDir);
    }

    private static int positiveInt(String key, String value) {
        try {
            int parsed = Integer.parseInt(value.trim());
            if (parsed >= 1) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("--" + key + " must be a whole number >= 1, got '" + value + "'");
    }

    private static boolean bool(String key, String value) {
        return switch (value.trim()) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("--" + key + " must be true or false, got '" + value + "'");
        };
    }

    private static Duration seconds(String key, String value, boolean zeroAllowed) {
        double parsed;
        try {
            parsed = Double.parseDouble(value.trim());
        } catch (NumberFormatException e) {
            parsed = Double.NaN;
        }
        long nanos = Math.round(parsed * 1e9);
        boolean valid = Double.isFinite(parsed) && parsed < 86_400 && (zeroAllowed ? nanos >= 0 : nanos > 0);
        if (!valid) {
            throw new IllegalArgumentException("--" + key + " must be a number of seconds " + (zeroAllowed ? ">= 0" : "> 0")
                    + " (fractions allowed, at most a day), got '" + value + "'");
        }
        return Duration.ofNanos(nanos);
    }

    private static Path directory(String key, String value) {
        if (value.isBlank()) {
            throw new IllegalArgumentException("--" + key + " must not be empty");
        }
        try {
            return Path.of(value);
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException("--" + key + " is not a valid path: '" + value + "' (" + e.getReason()
                    + ")");
        }
    }

    private static Set<Scenario> scenarioList(String value) {
        Set<Scenario> selected = EnumSet.noneOf(Scenario.class);
        for (String name : value.split(",")) {
            if (!name.isBlank()) {
                selected.add(Scenario.fromCliName(name));
            }
        }
        if (selected.isEmpty()) {
            throw new IllegalArgumentException("--scenarios must name at least one scenario");
        }
        return selected;
    }
}

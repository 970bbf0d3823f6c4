package io.distlock.faults.checker;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What one run of the randomized checker does: its seed, its load budget, how many worker JVMs and
 * threads, the mix of operations, whether faults are injected, and (for the checker's own test
 * only) a lock name the workers deliberately do not lock. Read from system properties; handed to
 * each worker JVM as program arguments.
 *
 * @param seed            run seed; the same seed replays the same operations and faults
 * @param seconds         how long the load runs
 * @param workers         worker JVMs
 * @param threads         threads per worker JVM
 * @param profile         the mix of operations
 * @param faults          whether the fault injector runs
 * @param unlockedName    a name whose single-lock operations skip the lock (checker self-test), or
 *                        {@code ""} for none
 */
public record CheckerSettings(long seed, int seconds, int workers, int threads, LoadProfile profile, boolean faults,
                              String unlockedName) {

    /** System property: the run seed (default: random, printed). */
    public static final String SEED = "distlock.checker.seed";
    /** System property: the load budget in seconds (default 60). */
    public static final String SECONDS = "distlock.checker.seconds";
    /** System property: the {@link LoadProfile} (default {@code MIXED}). */
    public static final String PROFILE = "distlock.checker.profile";
    /** System property: whether faults are injected (default {@code true}). */
    public static final String FAULTS = "distlock.checker.faults";
    /** How many program arguments of a worker the settings take. */
    public static final int ARGS = 7;

    /** The contended names of single-server locks. */
    public static final List<String> NAMES = List.of("n0", "n1", "n2", "n3");
    /** The RedLock name, its own namespace on the three RedLock masters: one, so that RedLocks contend. */
    public static final List<String> RED_NAMES = List.of("red0");
    /** The permit count of every semaphore the workers take. */
    public static final int PERMITS = 2;
    /** Lease of watchdog holds: renewed every second. */
    public static final Duration WATCHDOG = Duration.ofSeconds(3);
    /** Command timeout of the workers' clients. */
    public static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(2);
    /** Shortest explicit lease: well above a hold plus the longest reply delay. */
    public static final long MIN_LEASE_MS = 3_000;
    /** Longest explicit lease; the run waits this long after the workers ended before looking for holds left. */
    public static final long MAX_LEASE_MS = 6_000;
    /**
     * How much longer than its wait time a caller may take, besides the faults in force during the
     * call: two command timeouts (the last attempt and the release of what it got) and 2 s for a
     * loaded 2-core machine.
     */
    public static final long WAIT_SLACK_MS = 2 * COMMAND_TIMEOUT.toMillis() + 2_000;

    /**
     * @param defaultSeconds load budget when {@value #SECONDS} is not set
     * @return the settings of a normal run: two workers of six threads, the {@value #PROFILE} mix
     *         (every kind unless set), with faults unless {@value #FAULTS} is {@code false}
     */
    public static CheckerSettings fromSystemProperties(int defaultSeconds) {
        String seed = System.getProperty(SEED, "");
        return new CheckerSettings(
                seed.isBlank() ? ThreadLocalRandom.current().nextLong() : Long.parseLong(seed.trim()),
                Integer.getInteger(SECONDS, defaultSeconds), 2, 6,
                LoadProfile.valueOf(System.getProperty(PROFILE, LoadProfile.MIXED.name()).trim()),
                Boolean.parseBoolean(System.getProperty(FAULTS, "true").trim()), "");
    }

    /** @return these settings as program arguments, read back by {@link #fromArgs(List)} */
    public List<String> toArgs() {
        return new ArrayList<>(List.of(Long.toString(seed), Integer.toString(seconds), Integer.toString(workers),
                Integer.toString(threads), profile.name(), Boolean.toString(faults),
                unlockedName.isEmpty() ? "-" : unlockedName));
    }

    /**
     * @param args the first {@value #ARGS} program arguments of a worker, as written by {@link #toArgs()}
     * @return the settings
     */
    public static CheckerSettings fromArgs(List<String> args) {
        return new CheckerSettings(Long.parseLong(args.get(0)), Integer.parseInt(args.get(1)),
                Integer.parseInt(args.get(2)), Integer.parseInt(args.get(3)), LoadProfile.valueOf(args.get(4)),
                Boolean.parseBoolean(args.get(5)), "-".equals(args.get(6)) ? "" : args.get(6));
    }

    /** @return how long to wait for the workers to end their last operations after the budget */
    public Duration drainTimeout() {
        return Duration.ofSeconds(60);
    }

    /**
     * @return the upper bound of a whole run: JVM starts, the load, the drain, the wait for every
     *         lease to pass and the checks; the test's own timeout
     */
    public Duration runTimeout() {
        return Duration.ofSeconds(seconds + 240L);
    }
}

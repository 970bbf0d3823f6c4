package io.distlock.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Both backends' measurements of the {@link Scenario#PROCESSES} scenario, and the targets
 * for distlock across JVMs:
 * <ol>
 *   <li>one hot lock: no JVM keeps it for more than {@value #MAX_STREAK} acquisitions in a row, in
 *       any round;</li>
 *   <li>one hot lock: p99 time inside {@code lock()} no worse than Redisson's;</li>
 *   <li>one hot lock: the longest time inside {@code lock()} in the same range as Redisson's (at
 *       most {@value #MAX_WAIT_FACTOR}x);</li>
 *   <li>every case: at least {@value #THROUGHPUT_FACTOR}x Redisson's acquisitions per second.</li>
 * </ol>
 * Ratios and latencies are medians over rounds; the streak is the longest of all rounds.
 *
 * @param options the child JVM shape
 * @param cases   one entry per case, in run order
 */
public record ProcessResult(ProcessOptions options, List<ProcessCase> cases) {

    /** The longest run of acquisitions one JVM may keep a hot lock for. */
    static final int MAX_STREAK = 100;
    /** How many times Redisson's acquisitions per second distlock must reach. */
    static final double THROUGHPUT_FACTOR = 2.0;
    /** How many times Redisson's longest wait distlock's may be and still count as the same range. */
    static final double MAX_WAIT_FACTOR = 2.0;

    /** @return the length of the measurement window, the same for every load of the scenario */
    public Duration window() {
        return Duration.ofNanos(cases.get(0).rounds().get(0).distlock().windowNanos());
    }

    /** @return the checks, hot-lock ones first */
    public List<TargetCheck> checks() {
        List<TargetCheck> checks = new ArrayList<>();
        for (ProcessCase result : cases) {
            if (result.names() == 1) {
                checks.addAll(hotLockChecks(result));
            }
            Spread ratio = result.spread(ProcessRound::throughputRatio);
            checks.add(new TargetCheck(String.format(Locale.ROOT,
                    "processes, %s: distlock >= %.0fx redisson acquisitions/s", result.label(), THROUGHPUT_FACTOR),
                    String.format(Locale.ROOT, "median %.2fx of %d rounds, range %.2fx-%.2fx", ratio.median(),
                            result.rounds().size(), ratio.min(), ratio.max()),
                    ratio.median() >= THROUGHPUT_FACTOR));
        }
        return checks;
    }

    private static List<TargetCheck> hotLockChecks(ProcessCase hot) {
        double streak = hot.spread(ProcessRound::distlock, ProcessMeasurement::longestStreak).max();
        double ourP99 = hot.spread(ProcessRound::distlock, ProcessMeasurement::p99WaitMillis).median();
        double theirP99 = hot.spread(ProcessRound::redisson, ProcessMeasurement::p99WaitMillis).median();
        double ourMax = hot.spread(ProcessRound::distlock, ProcessMeasurement::maxWaitMillis).median();
        double theirMax = hot.spread(ProcessRound::redisson, ProcessMeasurement::maxWaitMillis).median();
        return List.of(
                new TargetCheck(String.format(Locale.ROOT, "processes, hot lock: no JVM keeps it for more than %d "
                        + "acquisitions in a row", MAX_STREAK), String.format(Locale.ROOT,
                        "longest distlock streak of %d rounds: %,.0f", hot.rounds().size(), streak),
                        streak <= MAX_STREAK),
                new TargetCheck("processes, hot lock: distlock p99 lock() wait <= redisson p99",
                        String.format(Locale.ROOT, "median p99: %.2f ms vs %.2f ms", ourP99, theirP99),
                        ourP99 <= theirP99),
                new TargetCheck(String.format(Locale.ROOT, "processes, hot lock: distlock longest lock() wait <= "
                        + "%.0fx redisson's", MAX_WAIT_FACTOR), String.format(Locale.ROOT,
                        "median longest wait: %.1f ms vs %.1f ms", ourMax, theirMax),
                        ourMax <= MAX_WAIT_FACTOR * theirMax));
    }
}

package io.distlock.benchmarks;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Both clients' measurements of the {@link Scenario#WATCHDOG} scenario, round by round, and the
 * issue's checks of distlock's.
 *
 * <p>One round's CPU ratio moves by a quarter from run to run on a 2-core machine (the renewals
 * cost about as much as the idle JVM around them), so the CPU target is the median of the per-round
 * ratios, and the rounds alternate which client goes first; the checks of distlock's correctness
 * hold in every round.
 *
 * @param options the scenario's size
 * @param rounds  the measured rounds, at least one, in order
 * @param flushed whether Redis was flushed before each client
 */
public record WatchdogResult(WatchdogOptions options, List<WatchdogRound> rounds, boolean flushed) {

    /**
     * How many times the fewest possible renewal calls a round may take: covers the first round's
     * {@code NOSCRIPT} retry and a round more or less in the window, not one call per lock.
     */
    public static final int CALLS_PER_ROUND_FACTOR = 2;

    /** What the report says of the round its table shows ({@link #medianRound()}). */
    static final String MEDIAN_ROUND = "the one with the median CPU ratio (of two middle ones, the higher)";

    /**
     * @throws IllegalArgumentException without rounds
     */
    public WatchdogResult {
        if (rounds.isEmpty()) {
            throw new IllegalArgumentException("no watchdog round");
        }
        rounds = List.copyOf(rounds);
    }

    /**
     * @return the round whose CPU ratio is the median one; with an even count, the higher of the
     *         two middle ones (the less flattering to distlock): the round the report's table shows
     */
    public WatchdogRound medianRound() {
        List<WatchdogRound> byRatio = rounds.stream().sorted(Comparator.comparingDouble(WatchdogRound::cpuRatio))
                .toList();
        return byRatio.get(byRatio.size() / 2);
    }

    /** @return distlock's measurement in the {@linkplain #medianRound() median round} */
    public WatchdogMeasurement distlock() {
        return medianRound().distlock();
    }

    /** @return Redisson's measurement in the {@linkplain #medianRound() median round} */
    public WatchdogMeasurement redisson() {
        return medianRound().redisson();
    }

    /** @return the most renewal calls per round distlock may take to pass */
    public long callsPerRoundBound() {
        return distlock().minCallsPerRound() * CALLS_PER_ROUND_FACTOR;
    }

    /**
     * @return the checks, each over every round (its measured value is the worst round's): distlock
     *         lost no lock, and its renewal calls per round stay within the bound
     */
    public List<TargetCheck> checks() {
        WatchdogMeasurement mostLost = worst(Comparator.comparing((WatchdogMeasurement m) -> !m.noneLost())
                .thenComparingLong(WatchdogMeasurement::locksLost).thenComparingLong(m -> -m.minPttl()));
        TargetCheck noneLost = new TargetCheck(String.format(Locale.ROOT,
                "watchdog: distlock lost none of %,d locks held %s s%s (all keys present, shortest lease > 0, "
                        + "no lost event, every unlock succeeded)", mostLost.locks(),
                        options.hold().toMillis() / 1000.0, inEveryRound()),
                String.format(Locale.ROOT, "%,d lost, %,d keys at the end, shortest lease %,d ms",
                        mostLost.locksLost(), mostLost.keysAtEnd(), mostLost.minPttl()),
                rounds.stream().allMatch(round -> round.distlock().noneLost()));
        WatchdogMeasurement mostCalls = worst(Comparator.comparingDouble(WatchdogMeasurement::callsPerRound));
        TargetCheck bounded = new TargetCheck(String.format(Locale.ROOT,
                "watchdog: distlock renewal calls per round <= %d x ceil(%,d / %d) = %d%s", CALLS_PER_ROUND_FACTOR,
                mostCalls.locks(), mostCalls.batchSize(), callsPerRoundBound(), inEveryRound()),
                String.format(Locale.ROOT, "%.1f (%,d calls over %.1f rounds)", mostCalls.callsPerRound(),
                        mostCalls.renewalCalls(), mostCalls.rounds()),
                mostCalls.callsPerRound() <= callsPerRoundBound());
        return List.of(noneLost, bounded);
    }

    /**
     * @return the performance target: distlock's JVM spent no more CPU in the hold than Redisson's,
     *         by the median of the per-round ratios
     */
    public TargetCheck cpuTarget() {
        Spread ratio = Spread.of(rounds.stream().mapToDouble(WatchdogRound::cpuRatio).toArray());
        String perRound = rounds.stream()
                .map(round -> String.format(Locale.ROOT, "%.2f s vs %.2f s", round.distlock().cpuNanos() / 1e9,
                        round.redisson().cpuNanos() / 1e9))
                .collect(Collectors.joining("; "));
        return new TargetCheck("watchdog: distlock JVM CPU in the hold <= Redisson's (median of the per-round ratios)",
                String.format(Locale.ROOT, "median %.2fx over %s, range %.2fx-%.2fx: %s", ratio.median(),
                        ReportCharts.plural(rounds.size(), "round"), ratio.min(), ratio.max(), perRound),
                ratio.median() <= 1.0);
    }

    private WatchdogMeasurement worst(Comparator<WatchdogMeasurement> order) {
        return rounds.stream().map(WatchdogRound::distlock).max(order).orElseThrow();
    }

    private String inEveryRound() {
        return rounds.size() == 1 ? "" : ", in every one of " + rounds.size() + " rounds";
    }
}

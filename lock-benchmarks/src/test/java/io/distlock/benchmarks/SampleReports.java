package io.distlock.benchmarks;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.IntStream;

/**
 * Hand-made benchmark reports with round numbers, for tests of the reports that need no Redis. Each
 * value differs from round to round so that its median is neither its mean nor its last round, and
 * the median of the per-round ratios is not the ratio of the medians:
 * <ul>
 *   <li>throughput scenarios, three rounds: distlock 2,000, 5,000, 1,000/s (median 2,000), Redisson
 *       500, 2,000, 1,000/s (median 1,000), per-round ratios 4.0, 2.5, 1.0 (median 2.50x, where the
 *       ratio of the medians would be 2.00x), ceiling 12,000, 4,000, 16,000 round trips/s (median
 *       6,000 pairs/s); p50 200 µs vs 400 µs and p99 2,000 µs vs 4,000 µs where latency is recorded
 *       (medians; every round scaled like its throughput);</li>
 *   <li>processes, three rounds per case: 1 name 3,000 vs 700 acquisitions/s (median ratio 5.00x,
 *       ratio of the medians 4.29x), 8 names 4,000 vs 1,600 (median ratio 2.00x, not 2.50x); waits
 *       scaled 1, 0.5 and 2 over the rounds, so their medians are those of the first round;</li>
 *   <li>watchdog, three rounds: JVM CPU 3 s vs 3 s, 2 s vs 4 s, 5 s vs 4 s (per-round ratios 1.00,
 *       0.50, 1.25: the median round is the first), distlock's renewal calls 2,400, 2,460, 2,520
 *       (40, 41, 42 per round) to Redisson's 120,000; nothing lost.</li>
 * </ul>
 */
final class SampleReports {

    static final Instant STARTED = Instant.parse("2026-11-24T10:15:30Z");
    static final String REDIS_LOCATION = "<local> redis-server & \"friends\"";

    private static final long SECOND = 1_000_000_000L;

    private SampleReports() {
    }

    /** @return every part of a run: all throughput scenarios, the watchdog and the processes scenario */
    static BenchmarkReport full() {
        List<ScenarioResult> results = Arrays.stream(Scenario.values()).filter(Scenario::throughput)
                .map(SampleReports::throughput).toList();
        return new BenchmarkReport(environment(), results, Optional.of(watchdog()), Optional.of(processes()));
    }

    /** @return a run of the processes scenario only */
    static BenchmarkReport processesOnly() {
        return new BenchmarkReport(environment(), List.of(), Optional.empty(), Optional.of(processes()));
    }

    static Environment environment() {
        return new Environment(STARTED, "abc1234-dirty", "7.2.4", REDIS_LOCATION, "OpenJDK 17 on Linux amd64", 2,
                "distlock 0.1.0-SNAPSHOT on Lettuce 6.8.0, Redisson 4.7.0", 16, 3, Duration.ofSeconds(2),
                Duration.ofSeconds(5));
    }

    /** @return three rounds of the scenario, with latency where the real scenario records it */
    static ScenarioResult throughput(Scenario scenario) {
        boolean latency = scenario == Scenario.CONTENDED || scenario == Scenario.FAIR || scenario == Scenario.SINGLE;
        int[] ours = {2, 5, 1};
        int[] theirs = {1, 4, 2};
        int[] ceiling = {3, 1, 4};
        List<RoundResult> rounds = IntStream.range(0, 3).mapToObj(i -> new RoundResult(
                measurement(1_000L * ours[i], latency ? 100L * ours[i] : 0),
                measurement(500L * theirs[i], latency ? 200L * theirs[i] : 0),
                measurement(4_000L * ceiling[i], 10L * ceiling[i]))).toList();
        return new ScenarioResult(scenario, scenario.threads(16), rounds);
    }

    /** @return three rounds per case: 1 name 3,000 vs 700 acquisitions/s, 8 names 4,000 vs 1,600 (medians) */
    static ProcessResult processes() {
        return new ProcessResult(new ProcessOptions(3, 4, Duration.ofSeconds(6)), List.of(
                processCase(1, new long[] {3_000, 5_000, 2_000}, new long[] {600, 700, 1_000}, new double[] {2.5, 48, 155},
                        new double[] {5, 126, 218}),
                processCase(8, new long[] {4_000, 2_000, 6_000}, new long[] {2_000, 1_000, 1_600}, new double[] {1, 24, 60},
                        new double[] {3, 46, 90})));
    }

    // waits: p50, p99 and longest wait in ms of the first round; the others have them x 0.5 and x 2
    private static ProcessCase processCase(int names, long[] ours, long[] theirs, double[] ourWaits,
                                           double[] theirWaits) {
        double[] waitScale = {1, 0.5, 2};
        return new ProcessCase(names, IntStream.range(0, 3).mapToObj(i -> new ProcessRound(
                process("distlock", names, ours[i], ourWaits[0] * waitScale[i], ourWaits[1] * waitScale[i],
                        ourWaits[2] * waitScale[i]),
                process("redisson", names, theirs[i], theirWaits[0] * waitScale[i], theirWaits[1] * waitScale[i],
                        theirWaits[2] * waitScale[i]))).toList());
    }

    static WatchdogResult watchdog() {
        return new WatchdogResult(WatchdogOptions.defaults(), List.of(watchdogRound(1, 3, 3, 2_400),
                watchdogRound(2, 2, 4, 2_460), watchdogRound(3, 5, 4, 2_520)), true);
    }

    /**
     * @return a watchdog round in which distlock lost nothing and made {@code renewalCalls} calls
     *         to Redisson's 120,000, with these CPU times in seconds
     */
    static WatchdogRound watchdogRound(int number, long distlockCpuSeconds, long redissonCpuSeconds,
                                       long renewalCalls) {
        return new WatchdogRound(number, number % 2 == 1,
                watchdog("distlock", renewalCalls, distlockCpuSeconds, 20_000, OptionalLong.of(0)),
                watchdog("redisson", 120_000, redissonCpuSeconds, 20_000, OptionalLong.empty()));
    }

    /** @return {@code operations} in one second; latency p50 = {@code p50Micros}, p99 = 10 x that, if not 0 */
    private static Measurement measurement(long operations, long p50Micros) {
        return new Measurement(operations, SECOND, p50Micros == 0 ? Optional.empty()
                : Optional.of(new Latency(p50Micros * 1_000, p50Micros * 10_000, 1_000)));
    }

    private static ProcessMeasurement process(String backend, int names, long perSecond, double p50Millis,
                                              double p99Millis, double maxMillis) {
        long acquisitions = perSecond * 5;
        return new ProcessMeasurement(backend, names, 5 * SECOND, acquisitions, acquisitions / 2, 20,
                new long[] {acquisitions / 3, acquisitions / 3, acquisitions - 2 * (acquisitions / 3)},
                new Latency((long) (p50Millis * 1e6), (long) (p99Millis * 1e6), (int) acquisitions),
                (long) (maxMillis * 1e6));
    }

    /** @return 20,000 locks held 60 s, one round a second, {@code keysAtEnd} of them still in Redis at the end */
    static WatchdogMeasurement watchdog(String backend, long renewalCalls, long cpuSeconds, long keysAtEnd,
                                        OptionalLong lostReported) {
        return new WatchdogMeasurement(backend, 20_000, 500, 4 * SECOND, 60 * SECOND, SECOND, renewalCalls,
                cpuSeconds * SECOND, OptionalLong.of(100), 20_000_000, 4_000_000, keysAtEnd, 2_000, 6, 12,
                lostReported, lostReported, 0);
    }
}

package io.distlock.benchmarks;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Hand-made benchmark reports with round numbers, for tests of the reports that need no Redis. Every
 * throughput scenario has three rounds, scaled 1, 3 and 2, so that its medians are those of the
 * round scaled 2: distlock 2,000/s, Redisson 1,000/s, ceiling 8,000 round trips/s = 4,000 pairs/s,
 * distlock/redisson 2.00x; p50 200 µs vs 400 µs, p99 2,000 µs vs 4,000 µs where latency is recorded.
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
        List<RoundResult> rounds = List.of(1, 3, 2).stream().map(scale -> new RoundResult(
                measurement(1_000 * scale, latency ? 100 * scale : 0),
                measurement(500 * scale, latency ? 200 * scale : 0),
                measurement(4_000 * scale, 10 * scale))).toList();
        return new ScenarioResult(scenario, scenario.threads(16), rounds);
    }

    /** @return one round per case: 1 name 3,000 vs 700 acquisitions/s, 8 names 4,000 vs 1,600 */
    static ProcessResult processes() {
        return new ProcessResult(new ProcessOptions(3, 4, Duration.ofSeconds(6)), List.of(
                new ProcessCase(1, List.of(new ProcessRound(process("distlock", 1, 3_000, 2.5, 48, 155),
                        process("redisson", 1, 700, 5, 126, 218)))),
                new ProcessCase(8, List.of(new ProcessRound(process("distlock", 8, 4_000, 1, 24, 60),
                        process("redisson", 8, 1_600, 3, 46, 90))))));
    }

    static WatchdogResult watchdog() {
        return new WatchdogResult(WatchdogOptions.defaults(), watchdog("distlock", 2_400, OptionalLong.of(0)),
                watchdog("redisson", 120_000, OptionalLong.empty()), true);
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

    private static WatchdogMeasurement watchdog(String backend, long renewalCalls, OptionalLong lostReported) {
        return new WatchdogMeasurement(backend, 20_000, 500, 4 * SECOND, 60 * SECOND, SECOND, renewalCalls,
                3 * SECOND, OptionalLong.of(100), 20_000_000, 4_000_000, 20_000, 2_000, 6, 12, lostReported,
                lostReported, 0);
    }
}

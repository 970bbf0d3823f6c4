package io.distlock.benchmarks;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Runs the watchdog scenario small against a fixture-started Redis: 1,200 locks (three renewal
 * batches of distlock) held for 7 s under a 3 s watchdog timeout, so that without renewal every
 * lock would have expired twice over; two rounds, so that each client is measured first once.
 */
class WatchdogScenarioTest {

    private static final int LOCKS = 1_200;

    @Test
    @Timeout(150)
    void distlockKeepsEveryLockWithBatchedRenewalsAndRedissonIsMeasuredBeside() throws InterruptedException {
        BenchmarkOptions options = BenchmarkOptions.parse("--scenarios=watchdog", "--rounds=2", "--watchdog-locks=" + LOCKS,
                "--watchdog-seconds=7", "--watchdog-timeout-seconds=3");
        ByteArrayOutputStream progress = new ByteArrayOutputStream();

        BenchmarkReport report = new BenchmarkRun(options,
                new PrintStream(progress, true, StandardCharsets.UTF_8)).execute();

        assertThat(report.results()).as("no throughput scenario was asked for").isEmpty();
        WatchdogResult result = report.watchdog().orElseThrow();
        assertThat(result.rounds()).extracting(WatchdogRound::number, WatchdogRound::distlockFirst)
                .containsExactly(tuple(1, true), tuple(2, false));
        WatchdogMeasurement ours = result.distlock();
        assertThat(ours.keysAtEnd()).as("distlock lock keys in Redis after the hold").isEqualTo(LOCKS);
        assertThat(ours.minPttl()).as("shortest lease left seen by any census, ms").isPositive();
        assertThat(ours.lostReported()).as("lost events").hasValue(0);
        assertThat(ours.renewalFailures()).as("failed-renewal events").hasValue(0);
        assertThat(ours.unlockFailures()).as("unlock() failures after the hold").isZero();
        assertThat(ours.noneLost()).isTrue();
        // 7 s / (3 s / 3) = 7 rounds of ceil(1,200 / 500) = 3 calls: renewal happened, in batches.
        assertThat(ours.minCallsPerRound()).isEqualTo(3);
        assertThat(ours.renewalCalls()).as("distlock renewal script calls").isPositive();
        assertThat(ours.callsPerRound()).as("distlock renewal calls per round")
                .isBetween(1.0, (double) result.callsPerRoundBound());
        assertThat(result.checks()).allSatisfy(check -> assertThat(check.met()).as(check.target()).isTrue());

        WatchdogMeasurement theirs = result.redisson();
        assertThat(theirs.locks()).isEqualTo(LOCKS);
        assertThat(theirs.renewalCalls()).as("redisson renewal script calls").isPositive();
        assertThat(theirs.lostReported()).as("Redisson reports no losses").isEmpty();
        assertThat(theirs.renewalFailures()).as("Redisson reports no failed renewals").isEmpty();
        assertThat(theirs.cpuNanos()).isPositive();

        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        new ReportPrinter(new PrintStream(printed, true, StandardCharsets.UTF_8)).print(report);
        assertThat(printed.toString(StandardCharsets.UTF_8))
                .contains("## watchdog: 1,200 locks held by one client for 7 s, watchdog timeout 3 s")
                .contains("| renewal calls per round |", "| heap per held lock (approximate) |")
                .contains("watchdog-r1 (distlock first): JVM CPU in the hold", "watchdog-r2 (redisson first)")
                .contains("- PASS: watchdog: distlock lost none of 1,200 locks held 7.0 s, in every one of 2 rounds")
                .contains("- PASS: watchdog: distlock renewal calls per round <= 2 x ceil(1,200 / 500) = 6, in every "
                        + "one of 2 rounds")
                .doesNotContain("| uncontended");
        assertThat(progress.toString(StandardCharsets.UTF_8)).containsSubsequence(
                "watchdog-r1 distlock  census 6/6: 1,200 keys", "watchdog-r1 redisson  census 6/6",
                "watchdog-r2 redisson  census 6/6", "watchdog-r2 distlock  census 6/6: 1,200 keys");
    }
}

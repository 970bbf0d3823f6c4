package io.distlock.benchmarks;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The watchdog scenario's verdicts over several rounds: the median CPU ratio, checks in every round;
 * and how many rounds it runs.
 */
class WatchdogResultTest {

    @Test
    void theCpuTargetIsTheMedianOfThePerRoundRatiosAndTheTableShowsThatRound() {
        WatchdogResult result = SampleReports.watchdog();

        assertThat(result.medianRound().number()).isEqualTo(1);
        assertThat(result.distlock().renewalCalls()).isEqualTo(2_400);
        TargetCheck cpu = result.cpuTarget();
        assertThat(cpu.met()).as("median 1.00x, although round 3 is 1.25x").isTrue();
        assertThat(cpu.actual()).isEqualTo("median 1.00x over 3 rounds, range 0.50x-1.25x: 3.00 s vs 3.00 s; "
                + "2.00 s vs 4.00 s; 5.00 s vs 4.00 s");
    }

    @Test
    void aMedianAboveRedissonsFailsTheCpuTargetThoughOneRoundIsBelow() {
        WatchdogResult result = new WatchdogResult(WatchdogOptions.defaults(), List.of(
                SampleReports.watchdogRound(1, 5, 4, 2_400), SampleReports.watchdogRound(2, 2, 4, 2_400),
                SampleReports.watchdogRound(3, 6, 5, 2_400), SampleReports.watchdogRound(4, 9, 8, 2_400)), true);

        // ratios 1.25, 0.50, 1.20, 1.125: median of an even count = mean of the middle two
        assertThat(result.cpuTarget().met()).isFalse();
        assertThat(result.cpuTarget().actual()).startsWith("median 1.16x over 4 rounds, range 0.50x-1.25x");
        assertThat(result.medianRound().number()).as("the higher of the two middle ratios: 1.20").isEqualTo(3);
    }

    @Test
    void aLockLostInAnyRoundFailsTheCheckAndIsTheOneReported() {
        TargetCheck noneLost = noneLostWithSecondRound(19_997, 3);

        assertThat(noneLost.met()).isFalse();
        assertThat(noneLost.target()).contains("in every one of 3 rounds");
        assertThat(noneLost.actual()).startsWith("3 lost, 19,997 keys at the end");
    }

    @Test
    void aRoundWithMoreKeysThanLocksFailsTheCheckAndIsTheOneReported() {
        TargetCheck noneLost = noneLostWithSecondRound(20_001, 0);

        assertThat(noneLost.met()).isFalse();
        assertThat(noneLost.actual()).startsWith("0 lost, 20,001 keys at the end");
    }

    @Test
    void tooManyCallsInAnyRoundFailTheBound() {
        WatchdogResult result = new WatchdogResult(WatchdogOptions.defaults(), List.of(
                SampleReports.watchdogRound(1, 3, 4, 2_400), SampleReports.watchdogRound(2, 3, 4, 4_860)), true);

        TargetCheck bounded = result.checks().get(1);
        assertThat(bounded.met()).as("81 calls per round > 2 x 40").isFalse();
        assertThat(bounded.actual()).startsWith("81.0 (4,860 calls over 60.0 rounds)");
    }

    @Test
    void theWatchdogRunsAnEvenNumberOfRoundsSoEachClientGoesFirstEquallyOften() {
        assertThat(WatchdogRun.roundsFor(1)).isEqualTo(2);
        assertThat(WatchdogRun.roundsFor(2)).isEqualTo(2);
        assertThat(WatchdogRun.roundsFor(3)).isEqualTo(4);
    }

    @Test
    void aResultHasAtLeastOneRound() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new WatchdogResult(WatchdogOptions.defaults(), List.of(), true))
                .withMessage("no watchdog round");
    }

    /**
     * @return the no-lock-lost check of three rounds, the first and last clean, the second with
     *         distlock's keys at the end and lost locks as given
     */
    private static TargetCheck noneLostWithSecondRound(long keysAtEnd, long lostReported) {
        WatchdogRound second = new WatchdogRound(2, false,
                SampleReports.watchdog("distlock", 2_400, 3, keysAtEnd, OptionalLong.of(lostReported)),
                SampleReports.watchdog("redisson", 120_000, 3, 20_000, OptionalLong.empty()));
        return new WatchdogResult(WatchdogOptions.defaults(), List.of(SampleReports.watchdogRound(1, 3, 4, 2_400),
                second, SampleReports.watchdogRound(3, 2, 4, 2_400)), true).checks().get(0);
    }
}

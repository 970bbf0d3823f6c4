package io.distlock.benchmarks;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** Parsing of {@code --rounds}, of the watchdog and processes scenarios' options and of {@code --report-dir}. */
@Timeout(10)
class BenchmarkOptionsTest {

    @Test
    void threeRoundsByDefault() {
        assertThat(BenchmarkOptions.parse().rounds()).isEqualTo(3);
    }

    @Test
    void roundsAreParsed() {
        assertThat(BenchmarkOptions.parse("--rounds=5").rounds()).isEqualTo(5);
    }

    @Test
    void fewerThanOneRoundIsRejected() {
        assertThatIllegalArgumentException().isThrownBy(() -> BenchmarkOptions.parse("--rounds=0"))
                .withMessageContaining("--rounds");
    }

    @Test
    void watchdogScenarioIsPartOfAllAndSizedBigByDefault() {
        BenchmarkOptions options = BenchmarkOptions.parse();
        assertThat(options.scenarios()).contains(Scenario.WATCHDOG);
        assertThat(options.watchdog()).isEqualTo(new WatchdogOptions(20_000, Duration.ofSeconds(60),
                Duration.ofSeconds(3), false));
    }

    @Test
    void watchdogOptionsAreParsedInAnyOrder() {
        BenchmarkOptions options = BenchmarkOptions.parse("--watchdog-seconds=2", "--watchdog-renewal-listener=true",
                "--watchdog-timeout-seconds=0.5", "--watchdog-locks=500", "--scenarios=watchdog");
        assertThat(options.scenarios()).containsExactly(Scenario.WATCHDOG);
        assertThat(options.watchdog()).isEqualTo(new WatchdogOptions(500, Duration.ofSeconds(2),
                Duration.ofMillis(500), true));
        assertThatIllegalArgumentException().isThrownBy(() -> BenchmarkOptions.parse("--watchdog-renewal-listener=yes"))
                .withMessageContaining("--watchdog-renewal-listener must be true or false");
    }

    @Test
    void aHoldShorterThanTheTimeoutIsRejected() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> BenchmarkOptions.parse("--watchdog-seconds=2", "--watchdog-timeout-seconds=3"))
                .withMessageContaining("--watchdog-seconds (2.0 s) must be at least --watchdog-timeout-seconds (3.0 s)");
    }

    @Test
    void aTimeoutBelowDistlocksMinimumIsRejected() {
        assertThatIllegalArgumentException().isThrownBy(() -> BenchmarkOptions.parse("--watchdog-timeout-seconds=0.05"))
                .withMessageContaining("--watchdog-timeout-seconds must be at least 0.1 s");
    }

    @Test
    void processesScenarioIsPartOfAllWithThreeJvmsOfFourThreadsByDefault() {
        BenchmarkOptions options = BenchmarkOptions.parse();
        assertThat(options.scenarios()).contains(Scenario.PROCESSES);
        assertThat(options.processes()).isEqualTo(new ProcessOptions(3, 4, Duration.ofSeconds(6)));
    }

    @Test
    void processesOptionsAreParsed() {
        assertThat(BenchmarkOptions.parse("--process-threads=2", "--process-warmup-seconds=0.5", "--processes=5")
                .processes()).isEqualTo(new ProcessOptions(5, 2, Duration.ofMillis(500)));
    }

    @Test
    void oneProcessIsRejected() {
        assertThatIllegalArgumentException().isThrownBy(() -> BenchmarkOptions.parse("--processes=1"))
                .withMessageContaining("--processes must be at least 2");
    }

    @Test
    void zeroWatchdogLocksAreRejected() {
        assertThatIllegalArgumentException().isThrownBy(() -> BenchmarkOptions.parse("--watchdog-locks=0"))
                .withMessageContaining("--watchdog-locks must be a whole number >= 1");
    }

    @Test
    void theHtmlReportGoesToTheModulesTargetWhenRunFromTheRepositoryRoot() {
        assertThat(BenchmarkOptions.parse().reportDir()).isEqualTo(Path.of("lock-benchmarks/target/benchmark-report"));
    }

    @Test
    void reportDirIsParsed() {
        assertThat(BenchmarkOptions.parse("--report-dir=/tmp/bench report", "--rounds=1").reportDir())
                .isEqualTo(Path.of("/tmp/bench report"));
        assertThat(BenchmarkOptions.parse("--report-dir=out").reportDir()).isEqualTo(Path.of("out"));
    }

    @Test
    void anEmptyReportDirIsRejected() {
        assertThatIllegalArgumentException().isThrownBy(() -> BenchmarkOptions.parse("--report-dir= "))
                .withMessage("--report-dir must not be empty");
    }

    @Test
    void aReportDirThatIsNoPathIsRejected() {
        assertThatIllegalArgumentException().isThrownBy(() -> BenchmarkOptions.parse("--report-dir=a\u0000b"))
                .withMessageStartingWith("--report-dir is not a valid path: 'a\u0000b'");
    }

    @Test
    void helpDescribesReportDirAndItsDefault() {
        assertThat(BenchmarkOptions.HELP).contains("--report-dir=DIR", "DIR/index.html",
                "lock-benchmarks/target/benchmark-report");
    }
}

package io.distlock.faults.checker;

import io.distlock.test.RedisExtension;
import io.distlock.test.RedisServerOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * The randomized checker (issue 9): two worker JVMs of six threads run random lock operations of
 * every kind on four colliding names (and RedLock over three servers) while random faults hit the
 * Redis under test (or two RedLock masters), its connections and the workers; an oracle that
 * trusts nothing the library says about itself judges the histories. Prints its seed first, a
 * summary and every excused overlap with its justification at the end; on a violation, prints the
 * history around it and fails.
 *
 * <p>CI runs it for {@value #CI_SECONDS} s of load. Longer, or replaying a seed:
 * <pre>
 * ./mvnw -pl lock-fault-tests -am verify -Dtest=RandomizedLockCheckerTest -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Ddistlock.checker.seconds=1800 [-Ddistlock.checker.seed=123]
 * </pre>
 * The histories stay in {@code lock-fault-tests/target/checker/seed-<seed>/}.
 */
class RandomizedLockCheckerTest {

    private static final int CI_SECONDS = 60;

    @RegisterExtension
    static RedisExtension redis = RedisExtension.nodes(3,
            RedisServerOptions.defaults().withArgs("--enable-debug-command", "yes"));

    @Test
    @Timeout(value = 1, unit = TimeUnit.DAYS)  // the limit that counts follows the budget: runTimeout() below
    void randomOperationsUnderRandomFaultsKeepEveryLockContract() {
        CheckerSettings settings = CheckerSettings.fromSystemProperties(CI_SECONDS);
        System.out.println("randomized lock checker: seed " + settings.seed() + ", " + settings.seconds()
                + " s of load (replay with -D" + CheckerSettings.SEED + "=" + settings.seed() + ")");
        Path histories = Path.of("target", "checker", "seed-" + settings.seed());
        CheckReport report = assertTimeoutPreemptively(settings.runTimeout(),
                () -> new CheckerRun(settings, redis.servers(), histories).run());
        System.out.println(report.summary());
        System.out.print(report.excusedDetails());
        assertThat(report.excused()).as("every excused overlap carries an excuse the rule allows")
                .allSatisfy(excused -> assertThat(excused.excuse().allowed()).as(excused.excuse().text()).isTrue());
        assertThat(report.violations()).as("%s%n%s", report.summary(), report.violationDetails()).isEmpty();
    }
}

package io.distlock.faults.checker;

import io.distlock.test.RedisExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The checker's own test: workers that skip the lock of one name (and only there) must be caught
 * overlapping there by the oracle, from the history files alone. (The library's own defects may
 * add findings elsewhere; this test only shows the oracle sees an overlap that is there.)
 */
@Timeout(240)  // 20 s of load; the rest is JVM starts, the drain and the wait for every lease, slow on a loaded machine
class CheckerSelfTest {

    private static final String UNLOCKED = "n0";

    @RegisterExtension
    static RedisExtension redis = RedisExtension.nodes(3);

    @Test
    void workersThatSkipTheLockOfOneNameAreCaughtOverlappingThere() throws Exception {
        CheckerSettings settings = new CheckerSettings(9L, 20, 2, 6, LoadProfile.MIXED, false, UNLOCKED);
        CheckReport report = new CheckerRun(settings, redis.servers(), Path.of("target", "checker", "self-test"))
                .run();
        System.out.println(report.summary());

        assertThat(report.violations()).as(report.summary()).anySatisfy(finding -> {
            assertThat(finding.kind()).isEqualTo("OVERLAP");
            assertThat(finding.message()).contains("entered " + UNLOCKED + " ");
        });
    }
}

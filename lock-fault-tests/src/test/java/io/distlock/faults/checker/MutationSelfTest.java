package io.distlock.faults.checker;

import io.distlock.test.RedisExtension;
import io.distlock.test.RedisServer;
import io.distlock.test.RedisServerOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * The checker's own test (issue 18): each {@link PlantedDefect} is planted in a copy of the engine
 * that only the worker JVMs load ({@link MutatedEngine}), the checker runs a short load aimed at
 * it, and it must report a violation of the defect's kind. A checker that cannot fail fails here.
 * Prints, per defect, the seconds of load until the first such violation could be seen, the run
 * time and the violations, and a table of all defects at the end.
 */
class MutationSelfTest {

    /** System property: run only these defects, e.g. {@code -Ddistlock.checker.defects=TAKEOVER_OF_A_HELD_LOCK}. */
    static final String DEFECTS = "distlock.checker.defects";
    private static final long SEED = 18L;
    private static final Map<PlantedDefect, String> RESULTS = new ConcurrentSkipListMap<>();

    @RegisterExtension
    static RedisExtension redis = RedisExtension.nodes(3,
            RedisServerOptions.defaults().withArgs("--enable-debug-command", "yes"));

    /** @return every planted defect, or those named in {@value #DEFECTS} (comma-separated) */
    static Stream<PlantedDefect> defects() {
        String names = System.getProperty(DEFECTS, "");
        return names.isBlank() ? Stream.of(PlantedDefect.values())
                : Stream.of(names.split(",")).map(String::trim).map(PlantedDefect::valueOf);
    }

    @ParameterizedTest
    @MethodSource("defects")
    @Timeout(value = 1, unit = TimeUnit.DAYS)  // the limit that counts follows the defect's load: runTimeout() below
    void theCheckerReportsEachPlantedDefect(PlantedDefect defect) {
        Path classes = new MutatedEngine(Path.of("target", "mutants")).plant(defect);
        redis.servers().forEach(RedisServer::flushAll);
        CheckerSettings settings = new CheckerSettings(SEED, defect.loadSeconds(), 2, 6, defect.profile(),
                defect.faults(), "");
        long started = System.nanoTime();
        CheckReport report = assertTimeoutPreemptively(settings.runTimeout(), () -> new CheckerRun(settings,
                redis.servers(), Path.of("target", "checker", "mutant-" + defect.name()), List.of(classes)).run());
        double runSeconds = (System.nanoTime() - started) / 1e9;
        double caughtAfter = report.secondsUntilFirst(defect.expectedKind());
        Map<String, Long> kinds = new TreeMap<>();
        report.violations().forEach(finding -> kinds.merge(finding.kind(), 1L, Long::sum));
        String result = String.format(Locale.ROOT, "%-40s expected %-8s %s, run %.0f s, violations %s",
                defect, defect.expectedKind(), caughtAfter < 0 ? "NOT CAUGHT"
                        : String.format(Locale.ROOT, "caught after %.1f s of load", caughtAfter), runSeconds, kinds);
        RESULTS.put(defect, result);
        System.out.println("planted defect: " + result + "\n" + report.summary());

        assertThat(report.violations()).as("%s%n%s", report.summary(), report.violationDetails())
                .extracting(Finding::kind).contains(defect.expectedKind());
    }

    @AfterAll
    static void printResults() {
        System.out.println("mutation self-test (seed " + SEED + "):");
        RESULTS.values().forEach(result -> System.out.println("  " + result));
    }
}

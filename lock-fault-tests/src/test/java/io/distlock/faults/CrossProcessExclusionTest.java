package io.distlock.faults;

import io.distlock.test.JavaProcess;
import io.distlock.test.RedisExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Multi-process exclusion checker: three JVMs with eight threads each run thousands of lock/unlock
 * cycles around a non-atomic read-modify-write of one Redis counter. Any overlap of two holders
 * shows twice: as a lost update of the counter, and as an "inside" count above one.
 */
@Timeout(150)
class CrossProcessExclusionTest {

    private static final int PROCESSES = 3;
    private static final int THREADS = 8;
    private static final int CYCLES = 150;

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    @Test
    void threeProcessesOfEightThreadsNeverHoldTheLockTogether() {
        List<JavaProcess> workers = new ArrayList<>();
        try {
            for (int p = 0; p < PROCESSES; p++) {
                workers.add(JavaProcess.start(ExclusionWorkerMain.class, redis.server().uri(), "checker",
                        Integer.toString(THREADS), Integer.toString(CYCLES)));
            }
            for (JavaProcess worker : workers) {
                worker.awaitLine("READY", Duration.ofSeconds(60));
            }
            long start = System.nanoTime();
            workers.forEach(worker -> worker.writeLine("GO"));

            long cycles = 0;
            long overlaps = 0;
            long errors = 0;
            for (JavaProcess worker : workers) {
                Map<String, Long> result = ChildReport.parse(worker.awaitLine("RESULT", Duration.ofMinutes(2)));
                cycles += result.get("cycles");
                overlaps += result.get("overlaps");
                errors += result.get("errors");
                assertThat(worker.waitFor(Duration.ofSeconds(30))).as("exit code of %s", worker).isEqualTo(OptionalInt.of(0));
            }
            long millis = (System.nanoTime() - start) / 1_000_000;
            System.out.printf("exclusion checker: %d cycles in %d ms by %d processes x %d threads%n", cycles, millis,
                    PROCESSES, THREADS);

            assertThat(errors).as("lock errors in the workers").isZero();
            assertThat(cycles).isEqualTo((long) PROCESSES * THREADS * CYCLES);
            assertThat(overlaps).as("critical sections entered while another holder was inside").isZero();
            assertThat(redis.server().commandString("GET", "checker:counter"))
                    .as("the counter lost no update").isEqualTo(Long.toString(cycles));
            assertThat(redis.server().commandString("GET", "checker:inside")).isEqualTo("0");
            assertThat(redis.server().command("EXISTS", "distlock:{checker}")).as("the lock is free").isEqualTo(0L);
        } finally {
            workers.forEach(JavaProcess::close);
        }
    }
}

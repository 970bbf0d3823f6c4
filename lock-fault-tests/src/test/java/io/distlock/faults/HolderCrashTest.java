package io.distlock.faults;

import io.distlock.core.LockHolderMain;
import io.distlock.core.RedisLock;
import io.distlock.core.TestClients;
import io.distlock.test.JavaProcess;
import io.distlock.test.RedisExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Kill: a holder process killed with SIGKILL loses its lock within the watchdog timeout. */
@Timeout(90)
class HolderCrashTest {

    private static final long WATCHDOG_MS = 2_000;
    /** Scheduling slack on a loaded machine: well below the watchdog timeout. */
    private static final long SLACK_MS = 1_000;

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    @RegisterExtension
    final TestClients clients = new TestClients();

    @Test
    void aHolderKilledWithSigkillLosesTheLockWithinTheWatchdogTimeout() throws Exception {
        try (JavaProcess holder = JavaProcess.start(LockHolderMain.class,
                redis.server().uri(), "crash", Long.toString(WATCHDOG_MS))) {
            holder.awaitLine("LOCKED", Duration.ofSeconds(30));
            RedisLock lock = clients.open(redis.server()).getLock("crash");
            // Held well past one watchdog timeout: the child's watchdog renews it.
            assertThat(lock.tryLock(WATCHDOG_MS + 500, TimeUnit.MILLISECONDS)).isFalse();

            holder.kill();
            long killedAt = System.nanoTime();
            assertThat(lock.tryLock(WATCHDOG_MS * 3, TimeUnit.MILLISECONDS)).isTrue();
            long takeoverMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt);

            assertThat(takeoverMs).as("time from SIGKILL to takeover").isLessThanOrEqualTo(WATCHDOG_MS + SLACK_MS);
            lock.unlock();
        }
    }
}

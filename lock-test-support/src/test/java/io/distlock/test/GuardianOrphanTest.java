package io.distlock.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** No redis-server may outlive the JVM that started it, however that JVM ends. */
@Timeout(90)
class GuardianOrphanTest {

    @Test
    void redisDiesWhenItsJvmIsSigkilled() {
        try (JavaProcess holder = JavaProcess.start(RedisHolderMain.class)) {
            long redisPid = redisPidOf(holder);
            assertThat(ProcessPolling.processAlive(redisPid)).isTrue();
            holder.kill();
            assertThat(Polling.within(Duration.ofSeconds(10), () -> !ProcessPolling.processAlive(redisPid)))
                    .as("redis pid %d must disappear after its JVM was SIGKILLed", redisPid).isTrue();
        }
    }

    @Test
    void redisDiesWhenItsJvmExitsWithoutClosing() {
        try (JavaProcess holder = JavaProcess.start(RedisHolderMain.class, "exit")) {
            long redisPid = redisPidOf(holder);
            assertThat(holder.waitFor(Duration.ofSeconds(30))).hasValue(0);
            assertThat(Polling.within(Duration.ofSeconds(10), () -> !ProcessPolling.processAlive(redisPid)))
                    .as("redis pid %d must disappear after its JVM exited", redisPid).isTrue();
        }
    }

    @Test
    void redisDiesWhenItsJvmIsSigkilledWhilePaused() {
        try (JavaProcess holder = JavaProcess.start(RedisHolderMain.class)) {
            long redisPid = redisPidOf(holder);
            holder.pause();
            holder.kill();
            assertThat(Polling.within(Duration.ofSeconds(10), () -> !ProcessPolling.processAlive(redisPid))).isTrue();
        }
    }

    @Test
    void childJvmDiesWhenItsParentJvmIsSigkilled() {
        try (JavaProcess parent = JavaProcess.start(NestedJavaMain.class)) {
            String line = parent.awaitLine("GRANDCHILD_PID", Duration.ofSeconds(60));
            long grandchildPid = Long.parseLong(line.split(" ")[1]);
            assertThat(ProcessPolling.processAlive(grandchildPid)).isTrue();
            parent.kill();
            assertThat(Polling.within(Duration.ofSeconds(10), () -> !ProcessPolling.processAlive(grandchildPid)))
                    .as("child JVM %d must disappear after its parent JVM was SIGKILLed", grandchildPid).isTrue();
        }
    }

    private static long redisPidOf(JavaProcess holder) {
        String line = holder.awaitLine("REDIS_PID", Duration.ofSeconds(30));
        long pid = Long.parseLong(line.split(" ")[1]);
        assumeTrue(pid > 0, "process mode only (containers are cleaned up by the Testcontainers reaper)");
        return pid;
    }
}

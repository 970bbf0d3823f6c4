package io.distlock.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class JavaProcessTest {

    @Test
    void startsMainClassAwaitsLineAndKills() {
        try (JavaProcess child = JavaProcess.start(EchoMain.class, "hello", "world")) {
            assertThat(child.awaitLine("READY", Duration.ofSeconds(30))).isEqualTo("READY hello world");
            assertThat(child.pid()).isPositive().isNotEqualTo(ProcessHandle.current().pid());
            assertThat(child.isAlive()).isTrue();
            child.kill();
            assertThat(child.isAlive()).isFalse();
            assertThat(child.waitFor(Duration.ofSeconds(5))).isEqualTo(OptionalInt.of(137));
        }
    }

    @Test
    void pausedChildDoesNotAnswerUntilResumed() {
        assumeTrue(Signals.procState(ProcessHandle.current().pid()).isPresent(), "needs /proc");
        try (JavaProcess child = JavaProcess.start(EchoMain.class)) {
            child.awaitLine("READY", Duration.ofSeconds(30));
            child.pause();
            assertThat(Signals.procState(child.pid())).hasValueSatisfying(s -> assertThat(Signals.isStoppedState(s)).isTrue());
            child.writeLine("ping");
            assertThatThrownBy(() -> child.awaitLine("ECHO ping", Duration.ofMillis(500)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("READY");
            child.resume();
            assertThat(child.awaitLine("ECHO ping", Duration.ofSeconds(10))).isEqualTo("ECHO ping");
        }
    }

    @Test
    void exitCodeAndOutputAreAvailable() {
        try (JavaProcess child = JavaProcess.start(EchoMain.class.getName(), List.of("-Xmx64m"), List.of("x"))) {
            child.awaitLine("READY x", Duration.ofSeconds(30));
            child.writeLine("exit");
            assertThat(child.waitFor(Duration.ofSeconds(30))).isEqualTo(OptionalInt.of(0));
            assertThat(child.output()).contains("READY x").contains("BYE");
            long before = System.nanoTime();
            assertThatThrownBy(() -> child.awaitLine("NEVER", Duration.ofSeconds(20)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("output ended");
            assertThat(Duration.ofNanos(System.nanoTime() - before)).isLessThan(Duration.ofSeconds(5));
        }
    }

    @Test
    void veryLongClasspathIsPassedThroughAnArgumentFile() {
        String classpath = System.getProperty("java.class.path");
        StringBuilder padded = new StringBuilder(classpath);
        for (int i = 0; padded.length() < 200_000; i++) {
            padded.append(java.io.File.pathSeparator).append("/nonexistent/dir with space/padding-").append(i).append(".jar");
        }
        System.setProperty("java.class.path", padded.toString());
        try (JavaProcess child = JavaProcess.start(EchoMain.class, "long")) {
            assertThat(child.awaitLine("READY", Duration.ofSeconds(30))).isEqualTo("READY long");
        } finally {
            System.setProperty("java.class.path", classpath);
        }
    }

    @Test
    void childUsesTheSameRedisMode() {
        String previous = System.getProperty(RedisMode.PROPERTY);
        System.setProperty(RedisMode.PROPERTY, "embedded");
        try (JavaProcess child = JavaProcess.start(RedisHolderMain.class)) {
            String line = child.awaitLine("REDIS_PID", Duration.ofSeconds(30));
            int port = Integer.parseInt(line.replaceAll(".* PORT ", "").trim());
            try (RespConnection connection = RespConnection.open("127.0.0.1", port, Duration.ofSeconds(5))) {
                assertThat(String.valueOf(connection.call("INFO", "server"))).contains("redis_version:6.2");
            }
        } finally {
            if (previous == null) {
                System.clearProperty(RedisMode.PROPERTY);
            } else {
                System.setProperty(RedisMode.PROPERTY, previous);
            }
        }
    }
}

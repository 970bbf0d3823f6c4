package io.distlock.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/** Runs small test classes through the JUnit test kit to check what the extension does around them. */
@Timeout(60)
class RedisExtensionLifecycleTest {

    private static volatile boolean kitRunning;
    private static final List<RedisServer> SEEN = new CopyOnWriteArrayList<>();

    static boolean kitRunning() {
        return kitRunning;
    }

    @Test
    void serversAreClosedAfterAllEvenWhenTestsFail() {
        SEEN.clear();
        run(FailingClass.class).assertStatistics(stats -> stats.started(2).failed(1).succeeded(1));
        assertThat(SEEN).hasSize(2).allSatisfy(RedisExtensionLifecycleTest::assertGone);
    }

    @Test
    void instanceFieldRegistrationGivesEachTestFreshServers() {
        SEEN.clear();
        run(PerTestClass.class).assertStatistics(stats -> stats.started(2).succeeded(2));
        assertThat(SEEN).hasSize(2);
        assertThat(SEEN.get(0)).isNotSameAs(SEEN.get(1));
        assertThat(SEEN).allSatisfy(RedisExtensionLifecycleTest::assertGone);
    }

    private static Events run(Class<?> testClass) {
        kitRunning = true;
        try {
            return EngineTestKit.engine("junit-jupiter").selectors(selectClass(testClass)).execute().testEvents();
        } finally {
            kitRunning = false;
        }
    }

    private static void assertGone(RedisServer server) {
        assertThat(server.isRunning()).isFalse();
        server.pid().ifPresent(pid ->
                assertThat(Polling.within(Duration.ofSeconds(10), () -> !ProcessPolling.processAlive(pid))).isTrue());
        assertThat(Polling.within(Duration.ofSeconds(5), () -> refusesConnections(server))).isTrue();
    }

    private static boolean refusesConnections(RedisServer server) {
        try (RespConnection ignored = RespConnection.open(server.host(), server.port(), Duration.ofMillis(500))) {
            return false;
        } catch (RuntimeException e) {
            return true;
        }
    }

    /** Executed only through the test kit. */
    @EnabledIf("io.distlock.test.RedisExtensionLifecycleTest#kitRunning")
    static class FailingClass {

        @RegisterExtension
        static RedisExtension redis = RedisExtension.nodes(2);

        @Test
        void fails() {
            SEEN.addAll(redis.servers());
            redis.server(0).pause();
            throw new AssertionError("deliberate failure");
        }

        @Test
        void passes() {
            assertThat(redis.server(1).command("PING")).isEqualTo("PONG");
        }
    }

    /** Executed only through the test kit. */
    @EnabledIf("io.distlock.test.RedisExtensionLifecycleTest#kitRunning")
    static class PerTestClass {

        @RegisterExtension
        RedisExtension redis = RedisExtension.single();

        @Test
        void first() {
            SEEN.add(redis.server());
            assertThat(redis.server().command("PING")).isEqualTo("PONG");
        }

        @Test
        void second() {
            SEEN.add(redis.server());
            assertThat(redis.server().command("PING")).isEqualTo("PONG");
        }
    }
}

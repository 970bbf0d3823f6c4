package io.distlock.spring.autoconfigure;

import io.distlock.core.LockException;
import io.distlock.core.internal.engine.RedisConnector;
import io.distlock.spring.BootGeneration;
import io.distlock.spring.DistributedLock;
import io.distlock.spring.LogCapture;
import io.distlock.test.RedisExtension;
import io.distlock.test.RedisServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.time.Duration;
import java.util.logging.Level;
import java.util.logging.LogRecord;

import static io.distlock.test.Polling.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * An application starts while its Redis is away, as one does with Spring Data Redis: it reports
 * distlock DOWN, fails lock calls at once, and works once a real redis-server answers, without a
 * restart; the same when that Redis is stopped while the application runs. One that asks for Redis at startup ({@code distlock.redis.required-at-startup}) still
 * stops.
 */
@Timeout(90)
class StartWithoutRedisTest {

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, DistLockAutoConfiguration.class,
                    BootGeneration.healthAutoConfiguration()))
            .withPropertyValues("distlock.redis.url=" + redis.server().uri(), "distlock.redis.timeout=1s")
            .withBean(Invoices.class);

    /** Sends invoices one at a time per invoice. */
    public static class Invoices {
        @DistributedLock(key = "#id", waitTime = "2s")
        public String send(String id) {
            return "sent " + id;
        }
    }

    @AfterEach
    void redisRunsAgain() {
        redis.server().start();
    }

    @Test
    void theApplicationStartsReportsDownFailsFastAndHealsWhenRedisAnswers() {
        RedisServer server = redis.server();
        server.stop();
        try (LogCapture log = LogCapture.of(RedisConnector.class)) {
            runner.run(context -> {
                assertThat(context).hasNotFailed();
                assertThat(log.records()).extracting(LogRecord::getLevel).containsExactly(Level.WARNING);
                assertThat(log.messages().get(0)).contains(":" + server.port(), "Starting without Redis");
                assertThat(BootGeneration.health(context).status()).isEqualTo("DOWN");

                Invoices invoices = context.getBean(Invoices.class);
                long start = System.nanoTime();
                assertThatThrownBy(() -> invoices.send("42")).isInstanceOf(LockException.class)
                        .hasMessageContaining("Not connected to Redis");
                assertThat(Duration.ofNanos(System.nanoTime() - start)).as("fails at once, no hang")
                        .isLessThan(Duration.ofSeconds(1));

                server.start();
                awaitUp(context);
                assertThat(invoices.send("42")).isEqualTo("sent 42");

                server.stop();
                // One step: a refusal counts for one command timeout (1 s here), so a separate
                // call after the wait could come too late on a stalled machine.
                awaitTrue("lock calls fail at once, saying Redis refused the connection", Duration.ofSeconds(20),
                        () -> failsAtOnceSaying(invoices, "Redis refused the connection"));
                assertThat(BootGeneration.health(context).status()).isEqualTo("DOWN");

                server.start();
                awaitUp(context);
                assertThat(invoices.send("43")).isEqualTo("sent 43");
            });
        }
    }

    private static void awaitUp(AssertableApplicationContext context) {
        awaitTrue("distlock is UP once Redis answers", Duration.ofSeconds(30),
                () -> BootGeneration.health(context).status().equals("UP"));
    }

    /** @return whether a locked call failed within a second with a message containing {@code reason} */
    private static boolean failsAtOnceSaying(Invoices invoices, String reason) {
        long start = System.nanoTime();
        try {
            invoices.send("probe");
            return false;
        } catch (LockException e) {
            return Duration.ofNanos(System.nanoTime() - start).compareTo(Duration.ofSeconds(1)) < 0
                    && String.valueOf(e.getMessage()).contains(reason);
        }
    }

    @Test
    void anApplicationThatRequiresRedisAtStartupStillStops() {
        redis.server().stop();
        runner.withPropertyValues("distlock.redis.required-at-startup=true").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).hasStackTraceContaining("Could not connect to Redis");
        });
    }
}

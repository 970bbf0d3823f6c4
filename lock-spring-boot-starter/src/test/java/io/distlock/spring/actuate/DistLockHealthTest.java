package io.distlock.spring.actuate;

import io.distlock.core.LockClient;
import io.distlock.core.RedisLock;
import io.distlock.spring.BootGeneration;
import io.distlock.spring.HealthReading;
import io.distlock.spring.LogCapture;
import io.distlock.spring.internal.DistLockHealthCheck;
import io.distlock.spring.autoconfigure.DistLockAutoConfiguration;
import io.distlock.test.RedisExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.LogRecord;

import static io.distlock.test.Polling.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

/** distlock's health indicator on either Spring Boot generation: what it reports and what it logs. */
@Timeout(90)
class DistLockHealthTest {

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DistLockAutoConfiguration.class,
                    BootGeneration.healthAutoConfiguration()));

    @Test
    void upWhenRedisAnswersAndDownWithAReasonWhenItDoesNot() {
        runner.withPropertyValues("distlock.redis.url=" + redis.server().uri(), "distlock.redis.timeout=1s")
                .run(context -> {
                    HealthReading up = BootGeneration.health(context);
                    assertThat(up.status()).isEqualTo("UP");
                    assertThat(up.details()).containsKeys("pingMicros", "keyPrefix", "watchdogLeases", "heldLocks",
                            "waitingCallers");

                    redis.server().stop();
                    try {
                        HealthReading down = BootGeneration.health(context);
                        assertThat(down.status()).isEqualTo("DOWN");
                        assertThat(down.details().get("error").toString()).contains("Redis");
                    } finally {
                        redis.server().start();
                    }
                });
    }

    @Test
    void aProbeLogsOneLinePerChangeOfStateNotOnePerProbe() {
        runner.withPropertyValues("distlock.redis.url=" + redis.server().uri(), "distlock.redis.timeout=1s")
                .run(context -> {
                    try (LogCapture log = LogCapture.of(DistLockHealthCheck.class)) {
                        assertThat(BootGeneration.health(context).status()).isEqualTo("UP");
                        redis.server().stop();
                        try {
                            for (int probe = 0; probe < 3; probe++) {
                                assertThat(BootGeneration.health(context).status()).isEqualTo("DOWN");
                            }
                        } finally {
                            redis.server().start();
                        }
                        awaitTrue("UP again", Duration.ofSeconds(30),
                                () -> BootGeneration.health(context).status().equals("UP"));
                        assertThat(BootGeneration.health(context).status()).isEqualTo("UP");

                        assertThat(log.records()).extracting(LogRecord::getLevel)
                                .containsExactly(Level.WARNING, Level.INFO);
                        assertThat(log.messages().get(0)).startsWith("distlock health is DOWN: ").contains("Redis");
                        assertThat(log.messages().get(1)).startsWith("distlock health is UP again");
                        assertThat(log.records()).extracting(LogRecord::getThrown).containsOnlyNulls();
                    }
                });
    }

    @Test
    void waitingCallersAreCallersThatWaitNotSubscriptions() {
        runner.withPropertyValues("distlock.redis.url=" + redis.server().uri()).run(context -> {
            LockClient client = context.getBean(LockClient.class);
            RedisLock lock = client.getLock("health:waiting");
            assertThat(lock.tryLockAsync(0, 0, TimeUnit.SECONDS, "holder").get(10, TimeUnit.SECONDS)).isTrue();
            CompletableFuture<Boolean> waiter = lock.tryLockAsync(30, 0, TimeUnit.SECONDS, "waiter");
            try {
                awaitTrue("the waiter is counted", Duration.ofSeconds(10),
                        () -> Long.valueOf(1).equals(BootGeneration.health(context).details().get("waitingCallers")));
                assertThat(BootGeneration.health(context).details()).containsEntry("heldLocks", 1L);
            } finally {
                lock.unlockAsync("holder").get(10, TimeUnit.SECONDS);
            }
            assertThat(waiter.get(10, TimeUnit.SECONDS)).isTrue();
            lock.unlockAsync("waiter").get(10, TimeUnit.SECONDS);
            awaitTrue("nobody waits once it got the lock", Duration.ofSeconds(10),
                    () -> Long.valueOf(0).equals(BootGeneration.health(context).details().get("waitingCallers")));
        });
    }

    @Test
    void canBeTurnedOff() {
        runner.withPropertyValues("distlock.redis.url=" + redis.server().uri(),
                        "management.health.distlock.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(HealthReading.INDICATOR_BEAN));
    }

    @Test
    void followsTheEngineSwitch() {
        runner.withPropertyValues("distlock.enabled=false")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(HealthReading.INDICATOR_BEAN));
    }
}

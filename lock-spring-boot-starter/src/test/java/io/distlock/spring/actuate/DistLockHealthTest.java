package io.distlock.spring.actuate;

import io.distlock.spring.BootGeneration;
import io.distlock.spring.HealthReading;
import io.distlock.spring.autoconfigure.DistLockAutoConfiguration;
import io.distlock.test.RedisExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

@Timeout(60)
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
                    assertThat(up.details()).containsKeys("pingMicros", "keyPrefix", "watchdogLeases");

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

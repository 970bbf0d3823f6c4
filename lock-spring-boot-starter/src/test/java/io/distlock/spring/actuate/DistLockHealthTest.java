package io.distlock.spring.actuate;

import io.distlock.spring.autoconfigure.DistLockAutoConfiguration;
import io.distlock.test.RedisExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

@Timeout(60)
class DistLockHealthTest {

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DistLockAutoConfiguration.class,
                    DistLockHealthAutoConfiguration.class));

    @Test
    void upWhenRedisAnswersAndDownWithAReasonWhenItDoesNot() {
        runner.withPropertyValues("distlock.redis.url=" + redis.server().uri(), "distlock.redis.timeout=1s")
                .run(context -> {
                    DistLockHealthIndicator indicator = context.getBean(DistLockHealthIndicator.class);
                    Health up = indicator.health(true);
                    assertThat(up.getStatus()).isEqualTo(Status.UP);
                    assertThat(up.getDetails()).containsKeys("pingMicros", "keyPrefix", "watchdogLeases");

                    redis.server().stop();
                    try {
                        Health down = indicator.health(true);
                        assertThat(down.getStatus()).isEqualTo(Status.DOWN);
                        assertThat(down.getDetails().get("error").toString()).contains("Redis");
                    } finally {
                        redis.server().start();
                    }
                });
    }

    @Test
    void canBeTurnedOff() {
        runner.withPropertyValues("distlock.redis.url=" + redis.server().uri(),
                        "management.health.distlock.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(DistLockHealthIndicator.class));
    }

    @Test
    void followsTheEngineSwitch() {
        runner.withPropertyValues("distlock.enabled=false")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(DistLockHealthIndicator.class));
    }
}

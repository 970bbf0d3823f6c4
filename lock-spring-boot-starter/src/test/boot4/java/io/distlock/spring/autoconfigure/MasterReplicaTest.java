package io.distlock.spring.autoconfigure;

import io.distlock.core.LockClient;
import io.distlock.test.RedisExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A static master/replica setup of Spring Boot 4's Redis connection (Boot 3.5 has none): the
 * starter cannot tell the master, so it refuses to connect there, but only if it is to connect.
 */
@Timeout(60)
class MasterReplicaTest {

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, DistLockAutoConfiguration.class))
            .withPropertyValues("spring.data.redis.masterreplica.nodes=127.0.0.1:1,127.0.0.1:2");

    @Test
    void stopsStartupNamingTheSetting() {
        runner.run(context -> assertThat(context.getStartupFailure()).rootCause()
                .isInstanceOf(InvalidLockPropertyException.class)
                .hasMessageContaining("spring.data.redis.masterreplica.nodes")
                .hasMessageContaining("distlock.redis.url"));
    }

    @Test
    void anApplicationWithItsOwnLockClientStarts() {
        runner.withBean(LockClient.class, () -> LockClient.builder().redisUri(redis.server().uri()).build(),
                        definition -> definition.setDestroyMethodName("close"))
                .run(context -> assertThat(context).hasNotFailed());
    }
}

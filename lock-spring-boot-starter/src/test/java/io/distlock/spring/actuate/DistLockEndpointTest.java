package io.distlock.spring.actuate;

import io.distlock.core.LockClient;
import io.distlock.core.LockInfo;
import io.distlock.core.RedisLock;
import io.distlock.spring.BootGeneration;
import io.distlock.spring.autoconfigure.DistLockAutoConfiguration;
import io.distlock.spring.autoconfigure.DistLockConnectionDetails;
import io.distlock.test.RedisExtension;
import org.assertj.core.api.InstanceOfAssertFactories;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The {@code distlock} actuator endpoint's operations, on a real Redis. */
@Timeout(60)
class DistLockEndpointTest {

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DistLockAutoConfiguration.class,
                    DistLockEndpointAutoConfiguration.class))
            .withPropertyValues("distlock.redis.url=" + redis.server().uri(), "distlock.redis.password=s3cret",
                    "management.endpoints.web.exposure.include=distlock");

    @Test
    void readShowsTheHeldLocksAndTheSettingsWithThePasswordMasked() {
        runner.run(context -> {
            LockClient client = context.getBean(LockClient.class);
            RedisLock lock = client.getLock("endpoint-read");
            assertThat(lock.tryLockAsync(0, 30, TimeUnit.SECONDS, "job-1").get(10, TimeUnit.SECONDS)).isTrue();

            DistLockEndpoint.LocksDescriptor read = context.getBean(DistLockEndpoint.class).locks();

            assertThat(read.clientId()).isEqualTo(client.clientId());
            assertThat(read.locks()).singleElement().satisfies(info -> {
                assertThat(info.name()).isEqualTo("endpoint-read");
                assertThat(info.holderId()).isEqualTo("job-1");
                assertThat(info.state()).isEqualTo(LockInfo.State.HELD);
            });
            assertThat(read.settings()).containsEntry("keyPrefix", "distlock:");
            assertThat(read.settings().get("redis")).asInstanceOf(InstanceOfAssertFactories.MAP)
                    .containsEntry("address", client.redisAddress())
                    .containsEntry("source", "distlock.redis.* properties");
            assertThat(client.redisAddress()).contains(":" + redis.server().port());
            assertThat(read.toString()).doesNotContain("s3cret");
        });
    }

    @Test
    void theRedisShownIsTheOneUsedWhereverItCameFrom() {
        ApplicationContextRunner fromSpringDataRedis = new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(DistLockAutoConfiguration.class,
                        DistLockEndpointAutoConfiguration.class, BootGeneration.redisAutoConfiguration()))
                .withPropertyValues("spring.data.redis.url=redis://:s3cret@127.0.0.1:" + redis.server().port(),
                        "management.endpoints.web.exposure.include=distlock");
        fromSpringDataRedis.run(context -> assertThat(redisShown(context))
                .hasEntrySatisfying("address", address -> assertThat(address.toString())
                        .startsWith("redis://").endsWith("127.0.0.1:" + redis.server().port()))
                .hasEntrySatisfying("source", source -> assertThat(source.toString())
                        .startsWith("Spring Boot's Redis connection details")));

        runner.withBean(DistLockConnectionDetails.class,
                        () -> () -> List.of(RedisURI.create(redis.server().uri())))
                .run(context -> assertThat(redisShown(context)).hasEntrySatisfying("source", source ->
                        assertThat(source.toString()).startsWith("a DistLockConnectionDetails bean of the application")));

        runner.withBean(LockClient.class, () -> LockClient.builder().redisUri(redis.server().uri()).build())
                .run(context -> assertThat(redisShown(context))
                        .containsEntry("source", "a LockClient bean of the application"));
    }

    private static Map<Object, Object> redisShown(ApplicationContext context) {
        DistLockEndpoint.LocksDescriptor read = context.getBean(DistLockEndpoint.class).locks();
        assertThat(read.toString()).doesNotContain("s3cret");
        @SuppressWarnings("unchecked")
        Map<Object, Object> redis = (Map<Object, Object>) read.settings().get("redis");
        return redis;
    }

    @Test
    void deleteForceReleasesALockAnotherInstanceHolds() {
        runner.run(context -> {
            try (LockClient otherInstance = LockClient.builder().redisUri(redis.server().uri()).build()) {
                RedisLock elsewhere = otherInstance.getLock("endpoint-stuck");
                elsewhere.lock();

                DistLockEndpoint endpoint = context.getBean(DistLockEndpoint.class);
                assertThat(endpoint.forceRelease("endpoint-stuck").released()).isTrue();

                assertThat(elsewhere.isLocked()).isFalse();
                assertThat(endpoint.forceRelease("endpoint-stuck").released()).as("nothing left").isFalse();
            }
        });
    }

    @Test
    void theEndpointIsAbsentUnlessExposed() {
        runner.withPropertyValues("management.endpoints.web.exposure.include=health")
                .run(context -> assertThat(context).doesNotHaveBean(DistLockEndpoint.class));
    }
}

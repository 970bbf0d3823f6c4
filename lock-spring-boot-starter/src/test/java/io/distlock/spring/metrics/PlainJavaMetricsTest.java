package io.distlock.spring.metrics;

import io.distlock.core.LockClient;
import io.distlock.core.RedisLock;
import io.distlock.core.metrics.LockMetrics;
import io.distlock.spring.BootGeneration;
import io.distlock.spring.autoconfigure.DistLockAutoConfiguration;
import io.distlock.test.RedisExtension;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Duration;
import java.util.Set;
import java.util.stream.Collectors;

import static io.distlock.test.Polling.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A plain-Java client given a meter registry ({@code LockClient.Builder.meterRegistry}) publishes
 * the meters the starter publishes for its client: the same names with the same tags.
 */
@Timeout(60)
class PlainJavaMetricsTest {

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    @Test
    void aPlainJavaClientPublishesTheStartersMeters() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(DistLockAutoConfiguration.class,
                        DistLockMetricsAutoConfiguration.class))
                .withConfiguration(AutoConfigurations.of(BootGeneration.metricsAutoConfigurations()))
                .withPropertyValues("distlock.redis.url=" + redis.server().uri())
                .run(context -> {
                    MeterRegistry starters = context.getBean(MeterRegistry.class);
                    useLocks(context.getBean(LockClient.class), starters);
                    MeterRegistry plain = new SimpleMeterRegistry();
                    try (LockClient client = LockClient.builder().redisUri(redis.server().uri()).meterRegistry(plain)
                            .build()) {
                        useLocks(client, plain);
                    }
                    assertThat(meterIds(plain)).isNotEmpty().isEqualTo(meterIds(starters));
                });
    }

    /** A binder of lock-core's type that the application defines stands in for the starter's: no event counts twice. */
    @Test
    void anApplicationsOwnLockMetricsReplacesTheStarters() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(DistLockAutoConfiguration.class,
                        DistLockMetricsAutoConfiguration.class))
                .withConfiguration(AutoConfigurations.of(BootGeneration.metricsAutoConfigurations()))
                .withPropertyValues("distlock.redis.url=" + redis.server().uri())
                .withUserConfiguration(OwnMetrics.class)
                .run(context -> assertThat(context).hasSingleBean(LockMetrics.class)
                        .doesNotHaveBean(DistLockMetrics.class));
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnMetrics {
        @Bean
        LockMetrics ownLockMetrics(LockClient client) {
            return new LockMetrics(client);
        }
    }

    /** One lock taken, held and released, and one attempt that finds it busy. */
    private static void useLocks(LockClient client, MeterRegistry registry) throws InterruptedException {
        RedisLock lock = client.getLock("metered:1", "metered");
        lock.lock();
        Thread other = new Thread(() -> lock.tryLock());
        other.start();
        other.join(10_000);
        lock.unlock();
        awaitTrue("the failed attempt is counted", Duration.ofSeconds(10), () -> registry.find("distlock.acquire")
                .tag("result", "busy").timers().stream().mapToLong(timer -> timer.count()).sum() == 1);
    }

    /** @return the ids of the distlock meters, as text: name and tags */
    private static Set<String> meterIds(MeterRegistry registry) {
        return registry.getMeters().stream().map(Meter::getId).filter(id -> id.getName().startsWith("distlock."))
                .map(id -> id.getName() + id.getTags()).collect(Collectors.toSet());
    }
}

package io.distlock.spring;

import io.distlock.spring.autoconfigure.DistLockAutoConfiguration;
import io.distlock.test.RedisExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.resilience.annotation.EnableResilientMethods;
import org.springframework.resilience.annotation.Retryable;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring Framework 7's {@code @Retryable} (Spring Boot 4) runs outside the lock advice, as docs/annotation.md
 * documents: every attempt takes the lock anew, so no retry back-off is spent holding it.
 */
@Timeout(60)
class RetryOrderTest {

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    /** Fails twice, then succeeds. */
    public static class Flaky {
        final AtomicInteger attempts = new AtomicInteger();

        @Retryable(maxRetries = 2, delay = 10)
        @DistributedLock(key = "#symbol")
        public String call(String symbol) {
            if (attempts.incrementAndGet() < 3) {
                throw new IllegalStateException("not yet");
            }
            return "ok";
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableResilientMethods
    static class Application {
        @Bean
        Flaky flaky() {
            return new Flaky();
        }
    }

    @Test
    void everyRetryTakesTheLockAnew() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, DistLockAutoConfiguration.class))
                .withUserConfiguration(Application.class)
                .withPropertyValues("distlock.redis.url=" + redis.server().uri())
                .run(context -> {
                    List<String> acquired = AdviceOrderTest.recordAcquisitions(context);

                    assertThat(context.getBean(Flaky.class).call("ACME")).isEqualTo("ok");

                    assertThat(acquired).hasSize(3).containsOnly("Flaky.call:ACME");
                });
    }
}

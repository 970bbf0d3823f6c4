package io.distlock.spring;

import io.distlock.core.LockClient;
import io.distlock.core.LockEvent;
import io.distlock.core.LockListener;
import io.distlock.spring.autoconfigure.DistLockAutoConfiguration;
import io.distlock.test.RedisExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cache.CacheManager;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.cache.concurrent.ConcurrentMapCacheManager;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where the lock advice runs among Spring's other method advice, as docs/annotation.md documents it:
 * {@code @Async} outside it (the lock is taken in the async task), {@code @Cacheable} outside it
 * once ordered so (a cache hit takes no lock). Spring Framework 7's {@code @Retryable}: see
 * {@code RetryOrderTest}, which runs on Spring Boot 4 only.
 */
@Timeout(60)
class AdviceOrderTest {

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, DistLockAutoConfiguration.class))
            .withUserConfiguration(Application.class)
            .withPropertyValues("distlock.redis.url=" + redis.server().uri());

    /** A service combining the lock with caching, retries and async execution. */
    public static class Quotes {
        final AtomicInteger computed = new AtomicInteger();

        @Cacheable("quotes")
        @DistributedLock(key = "#symbol")
        public String quote(String symbol) {
            computed.incrementAndGet();
            return symbol + "=" + LockContext.current().lockNames();
        }

        public int computed() {
            return computed.get();
        }

        @Async
        @DistributedLock(key = "#symbol")
        public CompletableFuture<String> later(String symbol) {
            return CompletableFuture.completedFuture(Thread.currentThread().getName() + " "
                    + LockContext.current().lockNames());
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableCaching(order = Ordered.LOWEST_PRECEDENCE - 200)
    @EnableAsync
    static class Application {
        @Bean
        CacheManager cacheManager() {
            return new ConcurrentMapCacheManager("quotes");
        }

        @Bean
        Quotes quotes() {
            return new Quotes();
        }
    }

    @Test
    void aCacheHitTakesNoLock() {
        runner.run(context -> {
            List<String> acquired = recordAcquisitions(context);
            Quotes quotes = context.getBean(Quotes.class);

            assertThat(quotes.quote("ACME")).isEqualTo("ACME=[Quotes.quote:ACME]");
            assertThat(quotes.quote("ACME")).isEqualTo("ACME=[Quotes.quote:ACME]");

            assertThat(quotes.computed()).isEqualTo(1);
            assertThat(acquired).containsExactly("Quotes.quote:ACME");
        });
    }

    @Test
    void anAsyncMethodIsLockedInItsTask() {
        runner.run(context -> {
            String ran = context.getBean(Quotes.class).later("ACME").get(10, TimeUnit.SECONDS);

            assertThat(ran).endsWith("[Quotes.later:ACME]").doesNotStartWith(Thread.currentThread().getName() + " ");
        });
    }

    /** @return the names of the locks the application's client takes from now on */
    static List<String> recordAcquisitions(ApplicationContext context) {
        List<String> acquired = new CopyOnWriteArrayList<>();
        context.getBean(LockClient.class).addListener(new LockListener() {
            @Override
            public void onAcquired(LockEvent event) {
                acquired.add(event.lockName());
            }
        });
        return acquired;
    }
}

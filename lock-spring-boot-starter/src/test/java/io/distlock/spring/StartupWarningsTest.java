package io.distlock.spring;

import io.distlock.spring.autoconfigure.DistLockAutoConfiguration;
import io.distlock.spring.autoconfigure.DistLockProperties;
import io.distlock.test.RedisExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The starter's beans are processed by every post-processor of the application: none is created
 * while post-processors are still being set up, which Spring reports at startup with "Bean ... is
 * not eligible for getting processed by all BeanPostProcessors" (and which would keep such a bean
 * from, say, being proxied or measured).
 */
@Timeout(60)
class StartupWarningsTest {

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    /** The last post-processor to be set up, as an application's own are: it sees what the others see. */
    @Configuration(proxyBeanMethods = false)
    static class ApplicationPostProcessor {

        static final Set<String> PROCESSED = ConcurrentHashMap.newKeySet();

        @Bean
        static BeanPostProcessor applicationPostProcessor() {
            return new BeanPostProcessor() {
                @Override
                public Object postProcessBeforeInitialization(Object bean, String beanName) {
                    PROCESSED.add(beanName);
                    return bean;
                }
            };
        }

        @Bean
        DistributedLockTest.OrderService orderService() {
            return new DistributedLockTest.OrderService();
        }
    }

    @Test
    void everyBeanOfTheStarterIsProcessedByEveryPostProcessor() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, DistLockAutoConfiguration.class))
                .withPropertyValues("distlock.redis.url=" + redis.server().uri(), "test.wait=150ms")
                .withUserConfiguration(ApplicationPostProcessor.class)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(DistributedLockTest.OrderService.class).process("hygiene")).isEqualTo(1);
                    assertThat(ApplicationPostProcessor.PROCESSED)
                            .containsAll(Set.of(context.getBeanNamesForType(DistLockProperties.class)));
                });
    }
}

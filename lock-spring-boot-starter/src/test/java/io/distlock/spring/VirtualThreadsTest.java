package io.distlock.spring;

import io.distlock.spring.autoconfigure.DistLockAutoConfiguration;
import io.distlock.test.RedisExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Many virtual threads, more than there are carrier threads, call one locked method: each waits
 * for the lock without pinning its carrier (no {@code synchronized} around blocking I/O), and they
 * still take turns. Runs on Java 21+ (the build targets 17, so virtual threads are reached by name).
 */
@Timeout(60)
@EnabledForJreRange(min = JRE.JAVA_21)
class VirtualThreadsTest {

    private static final int CALLERS = 64;

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    @Test
    void virtualThreadsTakeTurnsOnALockedMethod() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, DistLockAutoConfiguration.class))
                .withBean(DistributedLockTest.OrderService.class)
                .withPropertyValues("distlock.redis.url=" + redis.server().uri(), "test.wait=150ms")
                .run(context -> {
                    ExecutorService virtualThreads = newVirtualThreadPerTaskExecutor();
                    try {
                        DistributedLockTest.assertCallsTakeTurns(
                                context.getBean(DistributedLockTest.OrderService.class), virtualThreads, CALLERS);
                    } finally {
                        virtualThreads.shutdownNow();
                    }
                });
    }

    private static ExecutorService newVirtualThreadPerTaskExecutor() throws ReflectiveOperationException {
        return (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
    }
}

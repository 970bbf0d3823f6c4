package io.distlock.spring;

import io.distlock.core.LockAcquisitionException;
import io.distlock.core.KeysLeft;
import io.distlock.core.LockException;
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
import reactor.core.Disposable;
import reactor.core.publisher.Mono;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import static io.distlock.test.Polling.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Callers that give up at any moment (interrupt, cancel) never leave a lock behind, even when
 * they give up just as the lock is acquired. Hundreds of randomly timed give-ups per test.
 */
@Timeout(60)
class AbandonedCallsTest {

    private static final int ROUNDS = 300;

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, DistLockAutoConfiguration.class))
            .withUserConfiguration(Services.class)
            .withPropertyValues("distlock.redis.url=" + redis.server().uri());

    /** Locked methods that do nothing (plain) or never complete (reactive). */
    public static class Work {
        @DistributedLock(key = "#id", waitTime = "5s")
        public void quick(String id) {
        }

        @DistributedLock(key = "#id", waitTime = "5s")
        public Mono<String> forever(String id) {
            return Mono.never();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Services {
        @Bean
        Work work() {
            return new Work();
        }
    }

    @Test
    void interruptingCallersAtRandomMomentsLeavesNoLockHeld() {
        runner.run(context -> {
            Work work = context.getBean(Work.class);
            AtomicInteger interruptedCalls = new AtomicInteger();
            Thread caller = new Thread(() -> {
                for (int i = 0; i < ROUNDS * 10; i++) {
                    try {
                        work.quick("i" + (i % 10));
                    } catch (LockAcquisitionException e) {
                        interruptedCalls.incrementAndGet();
                    } catch (LockException e) {
                        // Redis did not confirm a release (an interrupt no longer stops the release)
                    }
                    Thread.interrupted();
                }
            });
            caller.start();
            while (caller.isAlive()) {
                LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(1_000_000));
                caller.interrupt();
            }
            assertThat(interruptedCalls.get()).as("interrupts landed while acquiring").isGreaterThan(10);
            awaitNoLockHeld("quick");
        });
    }

    @Test
    void cancellingSubscriptionsAtRandomMomentsLeavesNoLockHeld() {
        runner.run(context -> {
            Work work = context.getBean(Work.class);
            for (int i = 0; i < ROUNDS; i++) {
                Disposable subscription = work.forever("m" + (i % 10)).subscribe();
                LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(600_000));
                subscription.dispose();
            }
            awaitNoLockHeld("forever");
        });
    }

    private static void awaitNoLockHeld(String method) {
        awaitTrue("no lock of " + method + " is left in Redis", Duration.ofSeconds(15),
                () -> KeysLeft.matching(redis.server(), "distlock:{Work." + method + ":*").isEmpty());
    }
}

package io.distlock.spring.metrics;

import io.distlock.core.LockAcquisitionException;
import io.distlock.core.LockException;
import io.distlock.core.LockLostException;
import io.distlock.core.LockTemplate;
import io.distlock.spring.BootGeneration;
import io.distlock.spring.DistributedLock;
import io.distlock.spring.LogCapture;
import io.distlock.spring.OnFailure;
import io.distlock.spring.autoconfigure.DistLockAutoConfiguration;
import io.distlock.test.RedisExtension;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static io.distlock.test.Polling.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every {@code distlock.*} meter moves as locks are used through {@code @DistributedLock}, in the
 * registry Spring Boot creates, and is tagged by static name, never by key. Here the application
 * has no observation registry, so distlock's binder makes every meter; {@link ObservedLockMetricsTest}
 * runs the same tests in an application that has one.
 */
@Timeout(60)
class DistLockMetricsTest {

    static final Duration PATIENCE = Duration.ofSeconds(10);

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    final ApplicationContextRunner runner = application(new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, DistLockAutoConfiguration.class,
                    DistLockMetricsAutoConfiguration.class))
            .withConfiguration(AutoConfigurations.of(BootGeneration.metricsAutoConfigurations()))
            .withUserConfiguration(Services.class)
            .withPropertyValues("distlock.redis.url=" + redis.server().uri(), "distlock.redis.timeout=1s",
                    "distlock.watchdog.timeout=2s"));

    /**
     * @param base an application with a meter registry, distlock and a locked service
     * @return the application the tests run: as it is here
     */
    ApplicationContextRunner application(ApplicationContextRunner base) {
        return base;
    }

    /**
     * What else a lost lease shows, beyond the meters every application has.
     *
     * @param context the application, just after the loss was counted
     */
    void assertLossAlsoShown(ApplicationContext context) {
    }

    /**
     * Callers that block in the locked method, each on a thread of its own: CompletableFuture's
     * default executor on 2 cores is one thread on Java 25 (a new thread per task on Java 17).
     */
    final ExecutorService callers = Executors.newCachedThreadPool();

    @AfterEach
    void stopCallers() {
        callers.shutdownNow();
    }

    /** A service whose calls hold the lock until the test lets them go. */
    public static class Payments {
        @DistributedLock(key = "#id", name = "orders.pay", waitTime = "10s")
        public String pay(String id, CountDownLatch entered, CountDownLatch leave) throws InterruptedException {
            entered.countDown();
            assertThat(leave.await(30, TimeUnit.SECONDS)).isTrue();
            return id;
        }

        @DistributedLock(key = "#id", name = "orders.pay", waitTime = "100ms")
        public String quick(String id) {
            return id;
        }

        /** As a {@code @Scheduled} job runs on each instance: skips the tick another one runs. */
        @DistributedLock(key = "#id", name = "orders.pay", waitTime = "0s", onFailure = OnFailure.SKIP)
        public String unlessBusy(String id) {
            return id;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Services {
        @Bean
        Payments payments() {
            return new Payments();
        }
    }

    @Test
    void acquisitionsWaitsAndHoldsAreMeasuredUnderTheStaticName() {
        runner.run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            Payments payments = context.getBean(Payments.class);
            CountDownLatch firstIn = new CountDownLatch(1);
            CountDownLatch firstOut = new CountDownLatch(1);
            CompletableFuture<String> first = CompletableFuture.supplyAsync(() -> call(() ->
                    payments.pay("42", firstIn, firstOut)), callers);
            assertThat(firstIn.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(gauge(registry, "distlock.active")).isEqualTo(1);

            assertThatThrownBy(() -> payments.quick("42")).isInstanceOf(LockException.class)
                    .hasMessageContaining("orders.pay:42");
            assertThat(acquire(registry, "timeout").count()).isEqualTo(1);
            assertThat(payments.unlessBusy("42")).as("skipped").isNull();
            assertThat(acquire(registry, "busy").count()).as("a skip is no timeout").isEqualTo(1);
            assertThat(acquire(registry, "timeout").count()).isEqualTo(1);

            CountDownLatch secondIn = new CountDownLatch(1);
            CompletableFuture<String> second = CompletableFuture.supplyAsync(() -> call(() ->
                    payments.pay("42", secondIn, new CountDownLatch(0))), callers);
            awaitTrue("the second caller waits", PATIENCE, () -> gauge(registry, "distlock.waiting") == 1);

            CompletableFuture<Throwable> interrupted = new CompletableFuture<>();
            Thread waiter = new Thread(() -> {
                try {
                    payments.pay("42", new CountDownLatch(1), new CountDownLatch(0));
                    interrupted.complete(null);
                } catch (Throwable t) {
                    interrupted.complete(t);
                }
            });
            waiter.start();
            awaitTrue("a third caller waits", PATIENCE, () -> gauge(registry, "distlock.waiting") == 2);
            waiter.interrupt();
            assertThat(interrupted.get(10, TimeUnit.SECONDS)).isInstanceOf(LockAcquisitionException.class)
                    .hasMessageContaining("Interrupted");
            // The timer and the gauge may move apart: with observations, the timer is stopped at once,
            // while the gauge follows the engine's events.
            awaitTrue("the interrupted wait is counted", PATIENCE, () -> acquire(registry, "interrupted").count() == 1
                    && gauge(registry, "distlock.waiting") == 1);

            firstOut.countDown();
            assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("42");
            assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo("42");

            assertThat(acquire(registry, "acquired").count()).isEqualTo(2);
            assertThat(acquire(registry, "acquired").totalTime(TimeUnit.MILLISECONDS)).isPositive();
            assertThat(registry.get("distlock.held").tag("name", "orders.pay").timer().count()).isEqualTo(2);
            assertThat(gauge(registry, "distlock.active")).isZero();
            assertThat(gauge(registry, "distlock.waiting")).isZero();
            assertThat(registry.getMeters()).filteredOn(m -> m.getId().getName().startsWith("distlock."))
                    .extracting(m -> m.getId().getTag("name"))
                    .as("tags carry the static name, never the key")
                    .containsOnly("orders.pay", null);
        });
    }

    @Test
    void watchdogRenewalsAndLostLeasesAreCounted() {
        runner.run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            PayingCall holder = payAndHold(context, "7");
            assertThat(registry.get("distlock.watchdog.locks").gauge().value()).isEqualTo(1);
            awaitTrue("two renewals", PATIENCE, () -> renewals(registry, "renewed") >= 2);

            redis.server().command("DEL", "distlock:{orders.pay:7}");
            awaitTrue("the loss is counted", PATIENCE,
                    () -> registry.get("distlock.lost").tag("name", "orders.pay").counter().count() == 1);
            assertThat(renewals(registry, "lost")).isEqualTo(1);
            assertThat(gauge(registry, "distlock.active")).isZero();
            assertThat(registry.get("distlock.watchdog.locks").gauge().value()).isZero();
            assertLossAlsoShown(context);

            holder.leave().countDown();
            assertThatThrownBy(() -> holder.result().get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .rootCause().isInstanceOf(LockLostException.class);
        });
    }

    @Test
    void bindingTwiceNeverCountsTwice() {
        runner.run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            context.getBean(DistLockMetrics.class).bindTo(registry);
            assertThat(context.getBean(Payments.class).quick("2")).isEqualTo("2");
            assertThat(acquire(registry, "acquired").count()).isEqualTo(1);
        });
    }

    @Test
    void redisFailuresAreCountedAsErrors() {
        runner.run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            Payments payments = context.getBean(Payments.class);
            assertThat(payments.quick("1")).isEqualTo("1");
            redis.server().stop();
            assertThatThrownBy(() -> payments.quick("1")).isInstanceOf(LockException.class);
            assertThat(acquire(registry, "error").count()).isEqualTo(1);
            assertThat(acquire(registry, "error").getId().getTag("error")).as("the failure's class, unwrapped")
                    .endsWith("Exception").isNotIn("CompletionException", "ExecutionException");
        });
    }

    @Test
    void noBinderWithoutARegistryOrWithTheEngineOff() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(DistLockAutoConfiguration.class,
                        DistLockMetricsAutoConfiguration.class))
                .withPropertyValues("distlock.redis.url=" + redis.server().uri())
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(DistLockMetrics.class));
        runner.withPropertyValues("distlock.enabled=false")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(DistLockMetrics.class));
    }

    @Test
    void pastTheLimitOfNamesFurtherNamesGetNoMetersAndOneWarning() {
        try (LogCapture log = LogCapture.of(LockNameLimit.class)) {
            runner.withPropertyValues("distlock.metrics.max-names=1").run(context -> {
                MeterRegistry registry = context.getBean(MeterRegistry.class);
                LockTemplate template = context.getBean(LockTemplate.class);
                assertThat(context.getBean(Payments.class).quick("1")).isEqualTo("1");
                template.run("report:daily", Duration.ZERO, null, () -> { });
                template.run("export:weekly", Duration.ZERO, null, () -> { });

                assertThat(registry.getMeters()).filteredOn(m -> m.getId().getName().startsWith("distlock."))
                        .extracting(m -> m.getId().getTag("name"))
                        .as("the first name is measured, no other").containsOnly("orders.pay", null);
                assertThat(acquire(registry, "acquired").count()).isEqualTo(1);
            });
            assertThat(log.messages()).singleElement().asString()
                    .contains("distlock.metrics.max-names", "'report'");
        }
    }

    @Test
    void aLimitOfNamesBelowOneStopsStartupNamingTheProperty() {
        runner.withPropertyValues("distlock.metrics.max-names=0").run(context -> assertThat(context).hasFailed()
                .getFailure().rootCause().hasMessageContaining("distlock.metrics.max-names"));
    }

    /**
     * A call of {@link Payments#pay} on a thread of its own, inside the locked method now.
     *
     * @param result what the call returns
     * @param leave  lets it return
     */
    record PayingCall(CompletableFuture<String> result, CountDownLatch leave) {
    }

    /** @return a call of {@link Payments#pay} that holds the lock until let go */
    PayingCall payAndHold(ApplicationContext context, String id) throws InterruptedException {
        CountDownLatch in = new CountDownLatch(1);
        CountDownLatch leave = new CountDownLatch(1);
        CompletableFuture<String> result = CompletableFuture.supplyAsync(() -> call(() ->
                context.getBean(Payments.class).pay(id, in, leave)), callers);
        assertThat(in.await(10, TimeUnit.SECONDS)).as("the call is inside the locked method").isTrue();
        return new PayingCall(result, leave);
    }

    static <T> T call(Callable<T> action) {
        try {
            return action.call();
        } catch (Exception e) {
            throw new CompletionException(e);
        }
    }

    static Timer acquire(MeterRegistry registry, String result) {
        return registry.get("distlock.acquire").tag("name", "orders.pay").tag("result", result).timer();
    }

    private static double renewals(MeterRegistry registry, String result) {
        return registry.get("distlock.watchdog.renewals").tag("name", "orders.pay").tag("result", result).counter()
                .count();
    }

    private static double gauge(MeterRegistry registry, String name) {
        return registry.get(name).tag("name", "orders.pay").tag("type", "reentrant").gauge().value();
    }
}

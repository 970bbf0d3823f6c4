package io.distlock.spring;

import io.distlock.core.LockClient;
import io.distlock.spring.autoconfigure.DistLockAutoConfiguration;
import io.distlock.spring.metrics.DistLockMetricsAutoConfiguration;
import io.distlock.test.RedisExtension;
import io.distlock.test.RedisServer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every {@link LockType} through the annotation, with its metrics type tag. */
@Timeout(60)
class LockTypesTest {

    @RegisterExtension
    static RedisExtension redis = RedisExtension.nodes(3);

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, DistLockAutoConfiguration.class,
                    DistLockMetricsAutoConfiguration.class))
            .withConfiguration(AutoConfigurations.of(BootGeneration.metricsAutoConfigurations()))
            .withUserConfiguration(Services.class)
            .withPropertyValues("distlock.redis.url=" + redis.server(0).uri(),
                    "distlock.redlock.nodes=" + String.join(",", redis.servers().stream().map(RedisServer::uri).toList()));

    /** One method per kind. */
    public static class Prices {
        @DistributedLock(name = "prices", key = "#list", type = LockType.READ, waitTime = "5s")
        public String read(String list, CountDownLatch inside, CountDownLatch leave) throws InterruptedException {
            inside.countDown();
            leave.await(10, TimeUnit.SECONDS);
            return "read";
        }

        @DistributedLock(name = "prices", key = "#list", type = LockType.WRITE, waitTime = "200ms")
        public String write(String list) {
            return "written";
        }

        @DistributedLock(key = "#account", type = LockType.FENCED)
        public long post(String account) {
            return LockContext.current().fencingToken().orElseThrow();
        }

        @DistributedLock(key = "#queue", type = LockType.FAIR)
        public String take(String queue) {
            return LockContext.current().lockNames().get(0);
        }

        @DistributedLock(name = "partner", type = LockType.SEMAPHORE, permits = "${partner.max-calls:3}",
                waitTime = "200ms")
        public String callPartner(CountDownLatch inside, CountDownLatch leave) throws InterruptedException {
            inside.countDown();
            leave.await(10, TimeUnit.SECONDS);
            return "called";
        }

        @DistributedLock(key = "#job", type = LockType.RED_LOCK)
        public long redlock(String job) {
            return redis.servers().stream()
                    .filter(server -> "1".equals(server.commandString("EXISTS", "distlock:{Prices.redlock:" + job + "}")))
                    .count();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Services {
        @Bean
        Prices prices() {
            return new Prices();
        }
    }

    @Test
    void readersShareAndAWriterWaitsForThem() {
        runner.run(context -> {
            Prices prices = context.getBean(Prices.class);
            CountDownLatch inside = new CountDownLatch(2);
            CountDownLatch leave = new CountDownLatch(1);
            ExecutorService pool = Executors.newFixedThreadPool(2);
            List<CompletableFuture<String>> readers = new ArrayList<>();
            try {
                for (int i = 0; i < 2; i++) {
                    readers.add(CompletableFuture.supplyAsync(() -> {
                        try {
                            return prices.read("fruit", inside, leave);
                        } catch (InterruptedException e) {
                            throw new IllegalStateException(e);
                        }
                    }, pool));
                }
                assertThat(inside.await(10, TimeUnit.SECONDS)).as("two readers inside at once").isTrue();
                assertThatThrownBy(() -> prices.write("fruit")).isInstanceOf(io.distlock.core.LockAcquisitionException.class);
                leave.countDown();
                for (CompletableFuture<String> reader : readers) {
                    assertThat(reader.get(10, TimeUnit.SECONDS)).isEqualTo("read");
                }
            } finally {
                pool.shutdownNow();
            }
            assertThat(prices.write("fruit")).isEqualTo("written");
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            assertThat(registry.get("distlock.acquire").tag("name", "prices").tag("result", "acquired").timers())
                    .extracting(timer -> timer.getId().getTag("type")).containsExactlyInAnyOrder("read", "write");
            assertThat(registry.get("distlock.acquire").tag("name", "prices").tag("type", "write")
                    .tag("result", "timeout").timer().count()).isEqualTo(1);
        });
    }

    /** Two permits (from a property): two calls inside at once, a third refused, a permit freed for the next. */
    @Test
    void aSemaphoreLetsInAsManyCallsAsItHasPermits() {
        runner.withPropertyValues("partner.max-calls=2").run(context -> {
            Prices prices = context.getBean(Prices.class);
            CountDownLatch inside = new CountDownLatch(2);
            CountDownLatch leave = new CountDownLatch(1);
            ExecutorService pool = Executors.newFixedThreadPool(2);
            List<CompletableFuture<String>> calls = new ArrayList<>();
            try {
                for (int i = 0; i < 2; i++) {
                    calls.add(CompletableFuture.supplyAsync(() -> {
                        try {
                            return prices.callPartner(inside, leave);
                        } catch (InterruptedException e) {
                            throw new IllegalStateException(e);
                        }
                    }, pool));
                }
                assertThat(inside.await(10, TimeUnit.SECONDS)).as("two calls inside at once").isTrue();
                assertThat(context.getBean(LockClient.class).locks()).as("what the actuator shows")
                        .filteredOn(lock -> lock.type().equals("semaphore")).hasSize(2);
                assertThatThrownBy(() -> prices.callPartner(new CountDownLatch(1), leave))
                        .isInstanceOf(io.distlock.core.LockAcquisitionException.class)
                        .hasMessageContaining("partner");
                leave.countDown();
                for (CompletableFuture<String> call : calls) {
                    assertThat(call.get(10, TimeUnit.SECONDS)).isEqualTo("called");
                }
            } finally {
                pool.shutdownNow();
            }
            assertThat(prices.callPartner(new CountDownLatch(1), leave)).isEqualTo("called");
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            assertThat(registry.get("distlock.acquire").tag("name", "partner").tag("type", "semaphore")
                    .tag("result", "acquired").timer().count()).isEqualTo(3);
            assertThat(registry.get("distlock.acquire").tag("name", "partner").tag("type", "semaphore")
                    .tag("result", "timeout").timer().count()).isEqualTo(1);
        });
    }

    @Test
    void fencedFairAndRedLockMethods() {
        runner.run(context -> {
            Prices prices = context.getBean(Prices.class);
            long first = prices.post("ledger-1");
            long second = prices.post("ledger-1");
            assertThat(second).as("tokens increase").isGreaterThan(first);
            assertThat(prices.take("q")).isEqualTo("Prices.take:q");
            assertThat(prices.redlock("nightly")).as("held on all three masters").isEqualTo(3);
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            assertThat(type(registry, "Prices.post")).isEqualTo("fenced");
            assertThat(type(registry, "Prices.take")).isEqualTo("fair");
            assertThat(registry.get("distlock.acquire").tag("name", "Prices.redlock").tag("type", "red_lock")
                    .tag("result", "acquired").timer().count()).as("one per master").isEqualTo(3);
        });
    }

    @Test
    void redLockHoldsAreTimedOnceWhenOnlyTheMastersAreObserved() {
        // The application's own client has no observation registry; the starter's RedLock masters do.
        runner.withConfiguration(AutoConfigurations.of(BootGeneration.observationAutoConfigurations()))
                .withBean(LockClient.class, () -> LockClient.builder().redisUri(redis.server(0).uri()).build(),
                        definition -> definition.setDestroyMethodName("close"))
                .run(context -> {
                    assertThat(context.getBean(Prices.class).redlock("weekly")).isEqualTo(3);
                    assertThat(context.getBean(Prices.class).take("q")).isEqualTo("Prices.take:q");

                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    assertThat(registry.find("distlock.acquire").tag("name", "Prices.redlock").tag("result", "acquired")
                            .timers()).as("made once, from the masters' observations").singleElement()
                            .satisfies(timer -> {
                                assertThat(timer.count()).as("one per master").isEqualTo(3);
                                assertThat(timer.getId().getTag("type")).isEqualTo("red_lock");
                            });
                    assertThat(registry.find("distlock.acquire").tag("name", "Prices.take").timers())
                            .as("the application's own client, timed by the binder").isNotEmpty();
                    // Prometheus keeps one set of tag keys per meter name: the binder's timers and the
                    // handler's must have the same.
                    assertThat(registry.find("distlock.acquire").timers())
                            .extracting(timer -> timer.getId().getTags().stream().map(Tag::getKey).toList())
                            .containsOnly(List.of("error", "name", "result", "type"));
                });
    }

    private static String type(MeterRegistry registry, String name) {
        return registry.get("distlock.acquire").tag("name", name).tag("result", "acquired").timer().getId()
                .getTag("type");
    }
}

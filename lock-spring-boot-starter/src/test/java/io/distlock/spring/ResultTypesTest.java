package io.distlock.spring;

import io.distlock.core.LockAcquisitionException;
import io.distlock.core.LockClient;
import io.distlock.core.RedisLock;
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
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.Single;
import kotlinx.coroutines.flow.Flow;
import kotlinx.coroutines.reactive.ReactiveFlowKt;
import io.micrometer.context.ContextRegistry;
import org.reactivestreams.Publisher;
import org.springframework.core.ReactiveAdapter;
import org.springframework.core.ReactiveAdapterRegistry;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import static io.distlock.test.Polling.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Methods returning {@code CompletionStage}, Reactor, RxJava or Kotlin {@code Flow} types hold
 * their lock until the result completes, released from whichever thread completes it.
 */
@Timeout(60)
class ResultTypesTest {

    private static final Duration PATIENCE = Duration.ofSeconds(10);

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, DistLockAutoConfiguration.class))
            .withUserConfiguration(Services.class)
            .withPropertyValues("distlock.redis.url=" + redis.server().uri());

    /** Asynchronous methods whose results the test completes. */
    public static class Jobs {
        final AtomicInteger runs = new AtomicInteger();

        @DistributedLock(key = "#id", waitTime = "100ms")
        public CompletableFuture<String> start(String id, CompletableFuture<String> result) {
            runs.incrementAndGet();
            return result;
        }

        @DistributedLock(key = "#id", waitTime = "100ms", onFailure = OnFailure.SKIP)
        public CompletionStage<String> maybe(String id) {
            runs.incrementAndGet();
            return CompletableFuture.completedFuture("ran");
        }

        @DistributedLock(key = "#id", waitTime = "100ms")
        public Mono<String> mono(String id, Mono<String> result) {
            runs.incrementAndGet();
            return result;
        }

        @DistributedLock(key = "#id")
        public Mono<String> where(String id) {
            Duration lease = LockContext.current().remainingLease();  // blocks: must not be on Redis's I/O thread
            return Mono.just(Thread.currentThread().getName() + " lease>0=" + !lease.isZero());
        }

        @DistributedLock(key = "#id", waitTime = "100ms", onFailure = OnFailure.SKIP)
        public Flux<Integer> flux(String id, Flux<Integer> result) {
            runs.incrementAndGet();
            return result;
        }

        @DistributedLock(key = "#id")
        public Single<String> single(String id, Single<String> result) {
            return result;
        }

        @DistributedLock(key = "#id")
        public Flowable<String> flowable(String id, Flowable<String> result) {
            return result;
        }

        @DistributedLock(key = "#id")
        public Flow<String> flow(String id, Flow<String> result) {
            return result;
        }

        public int runs() {
            return runs.get();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Services {
        @Bean
        Jobs jobs() {
            return new Jobs();
        }
    }

    @Test
    void aFutureKeepsTheLockUntilItCompletesOnAnotherThread() {
        runner.run(context -> {
            Jobs jobs = context.getBean(Jobs.class);
            CompletableFuture<String> work = new CompletableFuture<>();
            CompletableFuture<String> returned = jobs.start("f1", work);
            assertThat(returned).isNotDone();
            assertThat(locked("Jobs.start:f1")).isTrue();
            assertThat(redis.server().commandString("HKEYS", "distlock:{Jobs.start:f1}")).contains(":op-");

            CompletableFuture<String> second = jobs.start("f1", CompletableFuture.completedFuture("never"));
            assertThatThrownBy(() -> second.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(LockAcquisitionException.class).hasMessageContaining("Jobs.start:f1");
            assertThat(jobs.runs()).isEqualTo(1);

            new Thread(() -> work.complete("done")).start();
            assertThat(returned.get(10, TimeUnit.SECONDS)).isEqualTo("done");
            assertThat(locked("Jobs.start:f1")).as("released before the caller's stage completed").isFalse();
        });
    }

    @Test
    void theCallersContextIsThereWhenTheFutureCompletes() {
        ThreadLocal<String> tenant = new ThreadLocal<>();
        ContextRegistry.getInstance().registerThreadLocalAccessor("distlock.test.tenant", tenant::get, tenant::set,
                tenant::remove);
        try {
            runner.run(context -> {
                CompletableFuture<String> work = new CompletableFuture<>();
                tenant.set("acme");
                CompletableFuture<String> returned = context.getBean(Jobs.class).start("c1", work);
                tenant.remove();
                CompletableFuture<String> seen = returned.thenApply(value -> tenant.get());

                new Thread(() -> work.complete("done")).start();

                assertThat(seen.get(10, TimeUnit.SECONDS)).as("the tenant the caller had").isEqualTo("acme");
            });
        } finally {
            ContextRegistry.getInstance().removeThreadLocalAccessor("distlock.test.tenant");
        }
    }

    @Test
    void noUserCodeRunsOnRedisIoThreads() {
        runner.run(context -> {
            Jobs jobs = context.getBean(Jobs.class);
            assertThat(jobs.where("t").block(PATIENCE)).doesNotContain("lettuce").endsWith("lease>0=true");

            CompletableFuture<String> work = new CompletableFuture<>();
            CompletableFuture<String> callback = jobs.start("t", work).thenApply(v -> Thread.currentThread().getName());
            work.complete("done");
            assertThat(callback.get(10, TimeUnit.SECONDS)).doesNotContain("lettuce");
        });
    }

    @Test
    void aFailedFutureAlsoReleasesAndKeepsItsFailure() {
        runner.run(context -> {
            Jobs jobs = context.getBean(Jobs.class);
            CompletableFuture<String> work = new CompletableFuture<>();
            CompletableFuture<String> returned = jobs.start("f2", work);
            work.completeExceptionally(new IllegalStateException("boom"));
            assertThatThrownBy(() -> returned.get(10, TimeUnit.SECONDS)).cause()
                    .isInstanceOf(IllegalStateException.class).hasMessage("boom");
            assertThat(locked("Jobs.start:f2")).isFalse();
        });
    }

    @Test
    void aSkippedStageCompletesWithNullWithoutRunning() {
        runner.run(context -> {
            Jobs jobs = context.getBean(Jobs.class);
            try (Held ignored = holdElsewhere(context.getBean(LockClient.class), "Jobs.maybe:s")) {
                assertThat(jobs.maybe("s").toCompletableFuture().get(10, TimeUnit.SECONDS)).isNull();
                assertThat(jobs.runs()).isZero();
            }
            assertThat(jobs.maybe("s").toCompletableFuture().get(10, TimeUnit.SECONDS)).isEqualTo("ran");
        });
    }

    @Test
    void aMonoLocksPerSubscriptionUntilItCompletes() {
        runner.run(context -> {
            Jobs jobs = context.getBean(Jobs.class);
            Sinks.One<String> result = Sinks.one();
            Mono<String> mono = jobs.mono("m1", result.asMono());
            assertThat(locked("Jobs.mono:m1")).as("nothing happens before subscription").isFalse();
            assertThat(jobs.runs()).isZero();

            CompletableFuture<String> value = mono.toFuture();
            awaitTrue("the subscription holds the lock", PATIENCE, () -> locked("Jobs.mono:m1"));
            // The method runs on boundedElastic just after the lock is taken: wait for it, don't race it.
            awaitTrue("the method ran once", PATIENCE, () -> jobs.runs() == 1);
            assertThatThrownBy(() -> jobs.mono("m1", Mono.just("other")).block(PATIENCE))
                    .isInstanceOf(LockAcquisitionException.class);
            assertThat(jobs.runs()).as("a refused subscription never runs the method").isEqualTo(1);

            result.tryEmitValue("hello");
            assertThat(value.get(10, TimeUnit.SECONDS)).isEqualTo("hello");
            awaitTrue("released after completion", PATIENCE, () -> !locked("Jobs.mono:m1"));

            Mono<String> again = jobs.mono("m1", Mono.just("x"));
            assertThat(List.of(again.block(PATIENCE), again.block(PATIENCE))).containsExactly("x", "x");
        });
    }

    @Test
    void aFluxIsReleasedWhenCancelledAndSkippedWhenTheLockIsTaken() {
        runner.run(context -> {
            Jobs jobs = context.getBean(Jobs.class);
            Disposable subscription = jobs.flux("x1", Flux.never()).subscribe();
            awaitTrue("the subscription holds the lock", PATIENCE, () -> locked("Jobs.flux:x1"));

            assertThat(jobs.flux("x1", Flux.just(1, 2)).collectList().block(PATIENCE)).as("skipped").isEmpty();

            subscription.dispose();
            awaitTrue("cancelling released the lock", PATIENCE, () -> !locked("Jobs.flux:x1"));
            assertThat(jobs.flux("x1", Flux.just(1, 2, 3)).collectList().block(PATIENCE)).containsExactly(1, 2, 3);
        });
    }

    @Test
    void rxJavaAndKotlinFlowResultsHoldTheLockUntilTheyComplete() {
        runner.run(context -> {
            Jobs jobs = context.getBean(Jobs.class);
            assertHeldUntilTheResultCompletes("Jobs.single:r1", Single.class,
                    work -> jobs.single("r1", Single.fromPublisher(work)));
            assertHeldUntilTheResultCompletes("Jobs.flowable:r2", Flowable.class,
                    work -> jobs.flowable("r2", Flowable.fromPublisher(work)));
            assertHeldUntilTheResultCompletes("Jobs.flow:r3", Flow.class,
                    work -> jobs.flow("r3", ReactiveFlowKt.asFlow(work)));
        });
    }

    /**
     * @param call calls the locked method with a result of its type that emits what the test
     *             emits into the given publisher, and completes then
     */
    private static void assertHeldUntilTheResultCompletes(String lockName, Class<?> resultType,
                                                          Function<Publisher<String>, Object> call) throws Exception {
        Sinks.One<String> work = Sinks.one();
        Object result = call.apply(work.asMono());
        CompletableFuture<List<Object>> values = Flux.from(adapter(resultType).toPublisher(result)).collectList()
                .toFuture();
        awaitTrue(resultType.getSimpleName() + ": the subscription holds the lock", PATIENCE, () -> locked(lockName));

        work.tryEmitValue("done");

        assertThat(values.get(10, TimeUnit.SECONDS)).containsExactly("done");
        awaitTrue(resultType.getSimpleName() + ": released once the result completed", PATIENCE,
                () -> !locked(lockName));
    }

    private static ReactiveAdapter adapter(Class<?> type) {
        return ReactiveAdapterRegistry.getSharedInstance().getAdapter(type);
    }

    private static boolean locked(String name) {
        return "1".equals(redis.server().commandString("EXISTS", "distlock:{" + name + "}"));
    }

    /** Holds a lock under another holder (like another instance of the service would). */
    static Held holdElsewhere(LockClient client, String name) throws Exception {
        RedisLock lock = client.getLock(name);
        assertThat(lock.tryLockAsync(0, 0, TimeUnit.SECONDS, "elsewhere").get(10, TimeUnit.SECONDS)).isTrue();
        return () -> lock.unlockAsync("elsewhere").get(10, TimeUnit.SECONDS);
    }

    /** A hold to give back at the end of a try block. */
    interface Held extends AutoCloseable {
        @Override
        void close() throws Exception;
    }
}

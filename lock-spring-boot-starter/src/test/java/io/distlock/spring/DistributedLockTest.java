package io.distlock.spring;

import io.distlock.core.LockAcquisitionException;
import io.distlock.core.LockClient;
import io.distlock.core.RedisLock;
import io.distlock.spring.aop.DistributedLockAdvisor;
import io.distlock.spring.autoconfigure.DistLockAutoConfiguration;
import io.distlock.test.RedisExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import io.reactivex.rxjava3.core.Single;
import org.springframework.aop.ClassFilter;
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.aop.support.AopUtils;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

@Timeout(60)
class DistributedLockTest {

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, DistLockAutoConfiguration.class))
            .withPropertyValues("distlock.redis.url=" + redis.server().uri(), "test.wait=150ms");

    /** A record argument for {@code #order.id}. */
    public record Order(String id) {
    }

    /** Supplies a key part through a bean reference. */
    public static class KeyPrefix {
        public String tenant() {
            return "tenant-1";
        }
    }

    /** Meta-annotation: every use locks on the first argument with a short wait. */
    @Target(ElementType.METHOD)
    @Retention(RetentionPolicy.RUNTIME)
    @DistributedLock(key = "#p0", waitTime = "100ms")
    public @interface QuickLock {
    }

    /** An interface method carrying the annotation. */
    public interface Inventory {
        @DistributedLock(key = "#sku")
        boolean reserve(String sku);
    }

    /** The locked service under test. */
    public static class OrderService implements Inventory {
        final AtomicInteger inside = new AtomicInteger();
        final AtomicInteger maxInside = new AtomicInteger();
        final AtomicInteger runs = new AtomicInteger();
        volatile int unsafeCounter;

        // Thread.yield() between the read and the write of the counter widens the window in which an
        // overlapping caller would lose an update: the overlap the tests look for.
        @SuppressWarnings("ThreadPriorityCheck")
        @DistributedLock(key = "#orderId", waitTime = "10s")
        public int process(String orderId) {
            maxInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
            int read = unsafeCounter;
            Thread.yield();
            unsafeCounter = read + 1;
            inside.decrementAndGet();
            return unsafeCounter;
        }

        @DistributedLock(key = "#order.id", waitTime = "${test.wait}")
        public String pay(Order order) {
            runs.incrementAndGet();
            return redis.server().commandString("EXISTS", "distlock:{OrderService.pay:" + order.id() + "}");
        }

        @DistributedLock(key = "#id", waitTime = "100ms", onFailure = OnFailure.SKIP)
        public Optional<String> maybe(String id) {
            runs.incrementAndGet();
            return Optional.of("ran");
        }

        @DistributedLock(key = "#ids", name = "stock")
        public List<String> batch(List<String> ids) {
            List<String> held = new ArrayList<>();
            for (String id : ids) {
                held.add(id + "=" + redis.server().commandString("EXISTS", "distlock:{stock:" + id + "}"));
            }
            return held;
        }

        @DistributedLock(key = "@keyPrefix.tenant() + ':' + #root.methodName")
        public String tenantJob() {
            return redis.server().commandString("EXISTS", "distlock:{OrderService.tenantJob:tenant-1:tenantJob}");
        }

        @QuickLock
        public String quick(String id) {
            return redis.server().commandString("EXISTS", "distlock:{OrderService.quick:" + id + "}");
        }

        // Tests read state through methods: fields of the CGLIB proxy itself stay empty.
        public int runs() {
            return runs.get();
        }

        public int unsafeCounter() {
            return unsafeCounter;
        }

        public int maxInside() {
            return maxInside.get();
        }

        @Override
        public boolean reserve(String sku) {
            return "1".equals(redis.server().commandString("EXISTS", "distlock:{OrderService.reserve:" + sku + "}"));
        }
    }

    /**
     * A locked method that returns with its thread's interrupt status set, Redis paused for half a
     * second so that the release cannot be answered before the aspect waits for it.
     */
    public static class SelfInterrupting {
        @DistributedLock(key = "#id")
        public String run(String id) {
            String held = redis.server().commandString("EXISTS", "distlock:{SelfInterrupting.run:" + id + "}");
            redis.server().pause();
            CompletableFuture.runAsync(() -> redis.server().resume(),
                    CompletableFuture.delayedExecutor(500, TimeUnit.MILLISECONDS));
            Thread.currentThread().interrupt();
            return held;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Services {
        @Bean
        OrderService orderService() {
            return new OrderService();
        }

        @Bean
        KeyPrefix keyPrefix() {
            return new KeyPrefix();
        }
    }

    @Test
    void concurrentCallsForOneKeyNeverOverlap() {
        runner.withUserConfiguration(Services.class).run(context -> {
            ExecutorService pool = Executors.newFixedThreadPool(8);
            try {
                assertCallsTakeTurns(context.getBean(OrderService.class), pool, 8 * 25);
            } finally {
                pool.shutdownNow();
            }
        });
    }

    /**
     * Makes {@code calls} concurrent calls of {@link OrderService#process} for one key on
     * {@code callers}, and checks that they took turns: none overlapped, no update was lost.
     */
    static void assertCallsTakeTurns(OrderService service, ExecutorService callers, int calls) throws Exception {
        List<Future<Integer>> results = new ArrayList<>();
        for (int i = 0; i < calls; i++) {
            results.add(callers.submit((Callable<Integer>) () -> service.process("42")));
        }
        for (Future<Integer> result : results) {
            result.get(30, TimeUnit.SECONDS);
        }
        assertThat(service.unsafeCounter()).isEqualTo(calls);
        assertThat(service.maxInside()).isEqualTo(1);
    }

    @Test
    void theLockNameIsTheStaticNameAndTheEvaluatedKey() {
        runner.withUserConfiguration(Services.class).run(context -> {
            OrderService service = context.getBean(OrderService.class);
            assertThat(service.pay(new Order("7"))).isEqualTo("1");
            assertThat(service.tenantJob()).isEqualTo("1");
            assertThat(service.quick("q1")).isEqualTo("1");
            assertThat(context.getBean(Inventory.class).reserve("sku-9")).isTrue();
            assertThat(redis.server().commandString("EXISTS", "distlock:{OrderService.pay:7}")).isEqualTo("0");
        });
    }

    /**
     * The release waits for its own decision through the interrupt: it used to throw at once
     * "Interrupted while releasing ...; they are released when their lease ends" while the release
     * went on and released them.
     */
    @Test
    void aMethodThatReturnsInterruptedStillReleasesAndKeepsTheInterruptStatus() {
        runner.withBean(SelfInterrupting.class).run(context -> {
            SelfInterrupting service = context.getBean(SelfInterrupting.class);
            Object[] result = new Object[1];
            Throwable failure;
            boolean stillInterrupted;
            try {
                failure = catchThrowable(() -> result[0] = service.run("i1"));
                stillInterrupted = Thread.interrupted();
            } finally {
                Thread.interrupted();
                redis.server().resume();
            }
            assertThat(failure).as("no failure from the release").isNull();
            assertThat(result[0]).as("the method ran holding the lock").isEqualTo("1");
            assertThat(stillInterrupted).as("the interrupt status is kept for the caller").isTrue();
            assertThat(redis.server().commandString("EXISTS", "distlock:{SelfInterrupting.run:i1}"))
                    .as("released, not left to its lease").isEqualTo("0");
        });
    }

    @Test
    void aCollectionKeyLocksEveryElement() {
        runner.withUserConfiguration(Services.class).run(context -> {
            List<String> held = context.getBean(OrderService.class).batch(List.of("b", "a", "c"));
            assertThat(held).containsExactly("b=1", "a=1", "c=1");
            assertThat(redis.server().commandString("EXISTS", "distlock:{stock:a}")).isEqualTo("0");
        });
    }

    @Test
    void notAcquiringInTimeThrowsOrSkipsWithoutRunningTheMethod() {
        runner.withUserConfiguration(Services.class).run(context -> {
            OrderService service = context.getBean(OrderService.class);
            LockClient other = LockClient.builder().redisUri(redis.server().uri()).build();
            try {
                RedisLock payLock = other.getLock("OrderService.pay:8");
                RedisLock maybeLock = other.getLock("OrderService.maybe:8");
                payLock.lock();
                maybeLock.lock();
                assertThatThrownBy(() -> service.pay(new Order("8")))
                        .isInstanceOf(LockAcquisitionException.class)
                        .hasMessageContaining("OrderService.pay:8")
                        .hasMessageContaining("150 ms");
                assertThat(service.maybe("8")).isEmpty();
                assertThat(service.runs()).isZero();
                payLock.unlock();
                maybeLock.unlock();
            } finally {
                other.close();
            }
        });
    }

    @Test
    void aNullKeyIsAnErrorAndTheMethodDoesNotRun() {
        runner.withUserConfiguration(Services.class).run(context -> {
            OrderService service = context.getBean(OrderService.class);
            assertThatThrownBy(() -> service.pay(new Order(null)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("#order.id")
                    .hasMessageContaining("null");
            assertThatThrownBy(() -> service.maybe(" "))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("blank");
            assertThatThrownBy(() -> service.pay(null))
                    .as("a null argument under a key's property: which argument, which lock, which method")
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("Lock key '#order.id' of lock 'OrderService.pay' on OrderService.pay "
                            + "could not be evaluated: argument 'order' is null (")
                    .hasMessageEndingWith("; the method was not run");
            assertThat(service.runs()).isZero();
        });
    }

    /** A key naming a property the argument does not have: fails on every call, whatever the argument. */
    public static class WrongProperty {
        @DistributedLock(key = "#order.number")
        public void run(Order order) {
        }
    }

    @Test
    void aKeyThatFailsOnAGoodArgumentIsTheCodesErrorNotTheCallers() {
        runner.withBean(WrongProperty.class).run(context -> assertThatThrownBy(() ->
                context.getBean(WrongProperty.class).run(new Order("1")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("Lock key '#order.number' of lock 'WrongProperty.run' on WrongProperty.run "
                        + "could not be evaluated: ")
                .hasMessageEndingWith("; the method was not run"));
    }

    /** A service whose annotation cannot work. */
    public static class Malformed {
        @DistributedLock(key = "#order.(id")
        public void broken(String order) {
        }
    }

    /** A service that asks to skip a method that must return a value. */
    public static class PrimitiveSkip {
        @DistributedLock(key = "#id", onFailure = OnFailure.SKIP)
        public int count(String id) {
            return 1;
        }
    }

    /** A service with a bad duration. */
    public static class BadWait {
        @DistributedLock(key = "#id", waitTime = "soon")
        public void run(String id) {
        }
    }

    /** A RedLock method in an application without RedLock masters. */
    public static class RedLockWithoutNodes {
        @DistributedLock(key = "#id", type = LockType.RED_LOCK)
        public void run(String id) {
        }
    }

    /** A key with a typo: the parameter is orderId. */
    public static class TypoInKey {
        @DistributedLock(key = "#orderid + ':' + #p0")
        public void place(String orderId) {
        }
    }

    /** Reached through its interface, which names the parameter otherwise. */
    public interface Shipping {
        boolean ship(String parcel);
    }

    /** A JDK-proxied service whose key uses its own parameter name. */
    public static class ParcelService implements Shipping {
        @Override
        @DistributedLock(key = "#parcelId")
        public boolean ship(String parcelId) {
            return "1".equals(redis.server().commandString("EXISTS", "distlock:{ParcelService.ship:" + parcelId + "}"));
        }
    }

    @Test
    void keysAreEvaluatedWithTheParameterNamesOfTheBeansOwnMethod() {
        runner.run(context -> {
            ProxyFactory jdkProxy = new ProxyFactory(new ParcelService());
            jdkProxy.addInterface(Shipping.class);
            jdkProxy.addAdvisor(context.getBean(DistributedLockAdvisor.class));
            Shipping shipping = (Shipping) jdkProxy.getProxy();
            assertThat(AopUtils.isJdkDynamicProxy(shipping)).isTrue();

            assertThat(shipping.ship("p-1")).as("held under the key, while the method ran").isTrue();
        });
    }

    @Test
    void classesThatCannotCarryTheAnnotationAreNotScannedMethodByMethod() {
        runner.run(context -> {
            ClassFilter classes = context.getBean(DistributedLockAdvisor.class).getPointcut().getClassFilter();
            assertThat(classes.matches(String.class)).isFalse();
            assertThat(classes.matches(OrderService.class)).isTrue();
        });
    }

    /** Results consumed after the method returned, when its lock would already be released. */
    public static class ConsumedLater {
        @DistributedLock(key = "#id")
        public Future<String> future(String id) {
            return CompletableFuture.completedFuture(id);
        }

        @DistributedLock(key = "#id")
        public Stream<String> stream(String id) {
            return Stream.of(id);
        }
    }

    /** SKIP on a result that cannot complete empty. */
    public static class SkippedSingle {
        @DistributedLock(key = "#id", onFailure = OnFailure.SKIP)
        public Single<String> single(String id) {
            return Single.just(id);
        }
    }

    /** A minimum hold time on a lock that cannot be kept taken. */
    public static class KeptFairLock {
        @DistributedLock(key = "#id", type = LockType.FAIR, minHoldTime = "1s")
        public void run(String id) {
        }
    }

    /** A semaphore without permits. */
    public static class NoPermits {
        @DistributedLock(key = "#id", type = LockType.SEMAPHORE)
        public void run(String id) {
        }
    }

    /** A permit count that is not a number. */
    public static class WordPermits {
        @DistributedLock(key = "#id", type = LockType.SEMAPHORE, permits = "${partner.limit:many}")
        public void run(String id) {
        }
    }

    /** A permit count that allows nobody in. */
    public static class ZeroPermits {
        @DistributedLock(key = "#id", type = LockType.SEMAPHORE, permits = "0")
        public void run(String id) {
        }
    }

    /** Permits on a lock, which has none. */
    public static class LockWithPermits {
        @DistributedLock(key = "#id", permits = "5")
        public void run(String id) {
        }
    }

    @Test
    void annotationsThatCannotWorkFailStartupNamingTheMethod() {
        assertStartupFails(KeptFairLock.class, "KeptFairLock.run", "minHoldTime needs a REENTRANT or FENCED lock");
        assertStartupFails(ConsumedLater.class, "ConsumedLater.", "is consumed after the method returns");
        assertStartupFails(SkippedSingle.class, "SkippedSingle.single", "SKIP", "cannot complete empty");
        assertStartupFails(TypoInKey.class, "TypoInKey.place", "#orderid", "[orderId]", "-parameters");
        assertStartupFails(Malformed.class, "Malformed.broken", "malformed");
        assertStartupFails(RedLockWithoutNodes.class, "RedLockWithoutNodes.run", "distlock.redlock.nodes");
        assertStartupFails(PrimitiveSkip.class, "PrimitiveSkip.count", "SKIP");
        assertStartupFails(BadWait.class, "BadWait.run", "waitTime 'soon'");
        assertStartupFails(NoPermits.class, "NoPermits.run", "type SEMAPHORE needs permits");
        assertStartupFails(WordPermits.class, "WordPermits.run",
                "permits '${partner.limit:many}' is 'many', not a positive whole number");
        assertStartupFails(ZeroPermits.class, "ZeroPermits.run", "permits '0' is '0', not a positive whole number");
        assertStartupFails(LockWithPermits.class, "LockWithPermits.run", "permits = '5' needs type = SEMAPHORE");
    }

    private void assertStartupFails(Class<?> service, String method, String... problem) {
        runner.withBean(service).run(context -> {
            assertThat(context).hasFailed();
            StringBuilder messages = new StringBuilder();
            for (Throwable t = context.getStartupFailure(); t != null; t = t.getCause()) {
                messages.append(t.getMessage()).append('\n');
            }
            assertThat(messages.toString()).contains("@DistributedLock on " + method).contains(problem);
        });
    }
}

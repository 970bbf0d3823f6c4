package io.distlock.spring;

import io.distlock.core.LockClient;
import io.distlock.core.LockLostException;
import io.distlock.spring.autoconfigure.DistLockAutoConfiguration;
import io.distlock.spring.metrics.DistLockMetricsAutoConfiguration;
import io.distlock.test.RedisExtension;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.test.util.AopTestUtils;
import reactor.core.publisher.Mono;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import static io.distlock.test.Polling.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * {@code @DistributedLock(onLost = CANCEL)}: a method whose lease is lost while it runs is
 * stopped, and its call ends with {@link LockLostException}; with real Redis, the lease taken away
 * by another client or lost to a paused Redis. The bound: the watchdog (1 s here) finds a lock
 * taken away at its next renewal, a third of a lease later, and a lease it cannot renew a fifth
 * of a lease before it can end; each call below must end within {@link #STOPPED_WITHIN} of that.
 */
@Timeout(90)
class LostLeaseCancellationTest {

    private static final Duration STOPPED_WITHIN = Duration.ofSeconds(5);

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, DistLockAutoConfiguration.class,
                    DistLockMetricsAutoConfiguration.class))
            .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
            .withBean(Workers.class)
            .withBean(Batches.class)
            .withPropertyValues("distlock.redis.url=" + redis.server().uri(), "distlock.watchdog.timeout=1s",
                    "distlock.redis.timeout=500ms");

    /** Methods that would run for a minute unless stopped; each says when it started. */
    public static class Workers {
        final AtomicBoolean finishBusyLoop = new AtomicBoolean();
        final AtomicBoolean monoCancelled = new AtomicBoolean();
        /** {@link System#nanoTime()} when {@link #sleep} was interrupted. */
        volatile long interruptedAt;

        @DistributedLock(key = "#id", onLost = OnLost.CANCEL)
        public String sleep(String id, CountDownLatch started) throws InterruptedException {
            started.countDown();
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                interruptedAt = System.nanoTime();
                throw e;
            }
            return "slept";
        }

        @DistributedLock(key = "#id", onLost = OnLost.CANCEL)
        public int read(String id, CountDownLatch started, SocketChannel silent) throws IOException {
            started.countDown();
            return silent.read(ByteBuffer.allocate(1));  // the other end never writes
        }

        /** Ignores interrupts: runs on until the test lets it finish. */
        @DistributedLock(key = "#id", onLost = OnLost.CANCEL)
        public String busy(String id, CountDownLatch started) {
            started.countDown();
            while (!finishBusyLoop.get()) {
                Thread.onSpinWait();
            }
            return "finished";
        }

        @DistributedLock(key = "#id", onLost = OnLost.CANCEL)
        public CompletableFuture<String> later(String id, CompletableFuture<String> result) {
            return result;
        }

        @DistributedLock(key = "#id", onLost = OnLost.CANCEL)
        public Mono<String> mono(String id, CountDownLatch started) {
            return Mono.<String>never().doOnSubscribe(s -> started.countDown())
                    .doOnCancel(() -> monoCancelled.set(true));
        }

        /** Stopped, it takes a moment before it returns: time for every interrupt of the loss to come. */
        @DistributedLock(key = "#id", name = "batch", onLost = OnLost.CANCEL)
        public String item(String id, CountDownLatch started) throws InterruptedException {
            started.countDown();
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500);
                while (System.nanoTime() < until) {
                    Thread.onSpinWait();
                }
                throw e;
            }
            return "item";
        }

        /** @return this call's loss signal, as {@link LockContext} gives it */
        @DistributedLock(key = "#id")
        public CallSignal signalOfTheCall(String id) {
            return new CallSignal(LockContext.current().whenLost().toCompletableFuture());
        }

        @DistributedLock(key = "#id", onLost = OnLost.CANCEL)
        public String quick(String id) {
            return "done " + id;
        }

        @DistributedLock(key = "#id")
        public String reportOnly(String id, CountDownLatch started, CountDownLatch finish) throws InterruptedException {
            started.countDown();
            return finish.await(30, TimeUnit.SECONDS) ? "ran on" : "not let finish";
        }
    }

    /** Calls a stopped method of {@link Workers} under the same lock, and goes on as a batch job would. */
    public static class Batches {
        private final Workers workers;

        public Batches(Workers workers) {
            this.workers = workers;
        }

        @DistributedLock(key = "#id", name = "batch", onLost = OnLost.CANCEL)
        public String run(String id, CountDownLatch started) throws InterruptedException {
            try {
                workers.item(id, started);
            } catch (LockLostException itemFailed) {
                // a batch goes on with its next item...
            }
            Thread.sleep(60_000);  // ...which must find the batch's own interrupt still there
            return "ran on";
        }
    }

    /** @param signal a call's loss signal, carried out of the call */
    record CallSignal(CompletableFuture<LockLostException> signal) {
    }

    /** Another instance of the application, which takes locks away. */
    private static LockClient other;

    @BeforeAll
    static void openOther() {
        other = LockClient.builder().redisUri(redis.server().uri()).build();
    }

    @AfterAll
    static void closeOther() {
        other.close();
    }

    private static boolean takeAway(String lockName) {
        return other.getLock(lockName).forceUnlock();
    }

    private static void await(CountDownLatch latch) throws InterruptedException {
        assertThat(latch.await(20, TimeUnit.SECONDS)).as("the method started").isTrue();
    }

    /** Runs the call on its own thread, takes its lock away once it started, and returns how the call ended. */
    private static Throwable stoppedWhenTakenAway(String lockName, CountDownLatch started, Step<?> call)
            throws Exception {
        ExecutorService caller = Executors.newSingleThreadExecutor();
        try {
            CompletableFuture<Throwable> ended = CompletableFuture.supplyAsync(() -> catchThrowable(call::run), caller);
            await(started);
            long takenAt = System.nanoTime();
            assertThat(takeAway(lockName)).isTrue();
            Throwable failure = ended.get(30, TimeUnit.SECONDS);
            assertThat(Duration.ofNanos(System.nanoTime() - takenAt)).as("stopped soon after the loss")
                    .isLessThan(STOPPED_WITHIN);
            assertThat(CompletableFuture.supplyAsync(() -> Thread.currentThread().isInterrupted(), caller)
                    .get(10, TimeUnit.SECONDS)).as("no interrupt left on the caller's thread").isFalse();
            return failure;
        } finally {
            caller.shutdownNow();
        }
    }

    /** A step of a test that may throw. */
    @FunctionalInterface
    interface Step<T> {
        T run() throws Exception;
    }

    /** @return the bean behind its proxy, whose fields the test reads (a class proxy has fields of its own) */
    private static Workers target(Workers proxy) {
        return AopTestUtils.getTargetObject(proxy);
    }

    private static double cancelled(AssertableApplicationContext context, String name) {
        return context.getBean(MeterRegistry.class).find("distlock.cancelled").tag("name", name).tag("type", "reentrant")
                .counters().stream().mapToDouble(counter -> counter.count()).sum();
    }

    private void run(Consumer<AssertableApplicationContext> test) {
        runner.run(test::accept);
    }

    @Test
    void aSleepingMethodIsInterruptedAndTheCallEndsWithTheLoss() {
        run(context -> {
            Workers workers = context.getBean(Workers.class);
            CountDownLatch started = new CountDownLatch(1);
            Throwable ended = unchecked(() -> stoppedWhenTakenAway("Workers.sleep:s1", started,
                    () -> workers.sleep("s1", started)));
            assertThat(ended).isInstanceOf(LockLostException.class)
                    .hasMessageContaining("lock 'Workers.sleep:s1' was lost")
                    .hasMessageContaining("the method was stopped (@DistributedLock Workers.sleep, onLost = CANCEL)");
            assertThat(ended.getSuppressed()).as("what the method threw when interrupted")
                    .anySatisfy(suppressed -> assertThat(suppressed).isInstanceOf(InterruptedException.class));
            assertThat(cancelled(context, "Workers.sleep")).isEqualTo(1.0);
        });
    }

    @Test
    void aNestedCallThatClearsItsInterruptLeavesTheEnclosingCallsInterrupt() {
        run(context -> {
            Batches batches = context.getBean(Batches.class);
            CountDownLatch started = new CountDownLatch(1);
            Throwable ended = unchecked(() -> stoppedWhenTakenAway("batch:n1", started,
                    () -> batches.run("n1", started)));
            assertThat(ended).isInstanceOf(LockLostException.class).hasMessageContaining("batch");
        });
    }

    @Test
    void aMethodBlockedReadingASocketIsStopped() throws IOException {
        try (ServerSocketChannel server = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
             SocketChannel silent = SocketChannel.open(server.getLocalAddress())) {
            run(context -> {
                Workers workers = context.getBean(Workers.class);
                CountDownLatch started = new CountDownLatch(1);
                Throwable ended = unchecked(() -> stoppedWhenTakenAway("Workers.read:r1", started,
                        () -> workers.read("r1", started, silent)));
                assertThat(ended).isInstanceOf(LockLostException.class);
                assertThat(silent.isOpen()).as("an interruptible channel is closed by the interrupt").isFalse();
            });
        }
    }

    @Test
    void aMethodThatIgnoresInterruptsRunsOnButItsCallStillEndsWithTheLoss() {
        run(context -> {
            Workers workers = context.getBean(Workers.class);
            CountDownLatch started = new CountDownLatch(1);
            CompletableFuture<Throwable> ended = CompletableFuture.supplyAsync(
                    () -> catchThrowable(() -> workers.busy("b1", started)));
            unchecked(() -> {
                await(started);
                assertThat(takeAway("Workers.busy:b1")).isTrue();
                // The watchdog finds the loss within a third of a second; the method runs on.
                assertThat(catchThrowable(() -> ended.get(2, TimeUnit.SECONDS)))
                        .isInstanceOf(java.util.concurrent.TimeoutException.class);
                target(workers).finishBusyLoop.set(true);
                return null;
            });
            assertThat(unchecked(() -> ended.get(20, TimeUnit.SECONDS))).isInstanceOf(LockLostException.class);
        });
    }

    @Test
    void aCompletionStageFailsAtOnceWhileTheMethodsFutureKeepsTheLocks() {
        run(context -> {
            Workers workers = context.getBean(Workers.class);
            CompletableFuture<String> methodsOwn = new CompletableFuture<>();
            CompletableFuture<String> call = workers.later("c1", methodsOwn);
            long takenAt = System.nanoTime();
            assertThat(takeAway("Workers.later:c1")).isTrue();

            Throwable ended = catchThrowable(() -> call.get(30, TimeUnit.SECONDS));
            assertThat(Duration.ofNanos(System.nanoTime() - takenAt)).isLessThan(STOPPED_WITHIN);
            assertThat(ended).hasCauseInstanceOf(LockLostException.class);
            assertThat(methodsOwn).as("left to the work it stands for, which releases the locks").isNotDone();
            methodsOwn.complete("done late");
            assertThat(cancelled(context, "Workers.later")).isEqualTo(1.0);
        });
    }

    @Test
    void aMonoIsCancelledUpstreamAndTheLossGoesDownstream() {
        run(context -> {
            Workers workers = context.getBean(Workers.class);
            CountDownLatch started = new CountDownLatch(1);
            CompletableFuture<String> call = workers.mono("m1", started).toFuture();
            unchecked(() -> {
                await(started);
                return null;
            });
            long takenAt = System.nanoTime();
            assertThat(takeAway("Workers.mono:m1")).isTrue();

            Throwable ended = catchThrowable(() -> call.get(30, TimeUnit.SECONDS));
            assertThat(Duration.ofNanos(System.nanoTime() - takenAt)).isLessThan(STOPPED_WITHIN);
            assertThat(ended).hasCauseInstanceOf(LockLostException.class);
            awaitTrue("the method's own subscription was cancelled", STOPPED_WITHIN,
                    () -> target(workers).monoCancelled.get());
            assertThat(cancelled(context, "Workers.mono")).isEqualTo(1.0);
        });
    }

    /**
     * Redis paused: renewals get no answer, and the method is interrupted before the lease set
     * before the pause can have ended (the 3 s lease of this test, counted from the pause).
     */
    @Test
    void aPausedRedisStopsTheMethodBeforeTheLeaseCanEnd() {
        runner.withPropertyValues("distlock.watchdog.timeout=3s").run(context -> {
            Workers workers = context.getBean(Workers.class);
            CountDownLatch started = new CountDownLatch(1);
            CompletableFuture<Throwable> ended = CompletableFuture.supplyAsync(
                    () -> catchThrowable(() -> workers.sleep("p1", started)));
            unchecked(() -> {
                await(started);
                return null;
            });
            long pausedAt = System.nanoTime();
            redis.server().pause();
            Throwable failure;
            try {
                failure = unchecked(() -> ended.get(30, TimeUnit.SECONDS));
            } finally {
                redis.server().resume();
            }
            assertThat(Duration.ofNanos(target(workers).interruptedAt - pausedAt)).as("within the lease set before the pause")
                    .isPositive().isLessThan(Duration.ofSeconds(3));
            assertThat(failure).isInstanceOf(LockLostException.class).hasMessageContaining("may end within");
        });
    }

    /**
     * Calls that finish while their lock is being taken away, on one pooled thread: whether a call
     * ends normally or with the loss, no interrupt reaches the thread afterwards.
     */
    @Test
    void noInterruptReachesAPooledThreadAfterTheCall() {
        run(context -> {
            Workers workers = context.getBean(Workers.class);
            ExecutorService pool = Executors.newSingleThreadExecutor();
            try {
                for (int i = 0; i < 20; i++) {
                    String id = "q" + i;
                    long delayMicros = ThreadLocalRandom.current().nextLong(2_000);
                    CompletableFuture.runAsync(() -> takeAway("Workers.quick:" + id),
                            CompletableFuture.delayedExecutor(delayMicros, TimeUnit.MICROSECONDS));
                    boolean interruptedAfter = unchecked(() -> pool.submit(() -> {
                        Throwable ended = catchThrowable(() -> workers.quick(id));
                        assertThat(ended).as("returned, or ended with the loss")
                                .satisfiesAnyOf(e -> assertThat(e).isNull(),
                                        e -> assertThat(e).isInstanceOf(LockLostException.class));
                        boolean now = Thread.currentThread().isInterrupted();
                        try {
                            Thread.sleep(50);  // time for a late interrupt to come
                            return now;
                        } catch (InterruptedException late) {
                            return true;
                        }
                    }).get(30, TimeUnit.SECONDS));
                    assertThat(interruptedAfter).as("call %s left an interrupt", id).isFalse();
                }
            } finally {
                pool.shutdownNow();
            }
        });
    }

    @Test
    void aCallsSignalEndsWithTheCallAsACancellationNotALoss() {
        run(context -> {
            CompletableFuture<LockLostException> signal = context.getBean(Workers.class).signalOfTheCall("s2").signal();
            assertThat(signal).as("no loss came; the call is over").isCompletedExceptionally();
            assertThat(catchThrowable(signal::join)).hasRootCauseInstanceOf(java.util.concurrent.CancellationException.class);
        });
    }

    @Test
    void byDefaultTheMethodRunsOnAndTheCallEndsWithTheLoss() {
        run(context -> {
            Workers workers = context.getBean(Workers.class);
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch finish = new CountDownLatch(1);
            CompletableFuture<Throwable> ended = CompletableFuture.supplyAsync(
                    () -> catchThrowable(() -> workers.reportOnly("d1", started, finish)));
            unchecked(() -> {
                await(started);
                assertThat(takeAway("Workers.reportOnly:d1")).isTrue();
                assertThat(catchThrowable(() -> ended.get(2, TimeUnit.SECONDS)))
                        .as("not stopped").isInstanceOf(java.util.concurrent.TimeoutException.class);
                finish.countDown();
                return null;
            });
            // The loss was reported when found; a release more than a watchdog timeout (1 s here)
            // later finds nothing held any more, and says only that.
            assertThat(unchecked(() -> ended.get(20, TimeUnit.SECONDS)))
                    .isInstanceOf(IllegalMonitorStateException.class);
            assertThat(cancelled(context, "Workers.reportOnly")).isZero();
        });
    }

    private static <T> T unchecked(Step<T> step) {
        try {
            return step.run();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}

package io.distlock.core;

import io.distlock.core.observation.DefaultLockObservationConvention;
import io.distlock.core.observation.LockObservationContext;
import io.distlock.test.RedisExtension;
import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.GlobalObservationConvention;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import static io.distlock.test.Polling.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Acquisitions and holds as Micrometer Observations ({@link LockClient.Builder#observationRegistry}),
 * against a real Redis. A recording handler counts what the engine starts, stops and reports, so
 * the tests check each observation is stopped exactly once, which Micrometer's own test registry
 * does not count.
 */
@Timeout(60)
class ObservationTest {

    private static final String ACQUIRE = "distlock.acquire";
    private static final String HELD = "distlock.held";

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    @RegisterExtension
    final TestClients clients = new TestClients();

    private final TestObservationRegistry registry = TestObservationRegistry.create();
    private final Recorder recorded = new Recorder();

    ObservationTest() {
        registry.observationConfig().observationHandler(recorded);
    }

    @Test
    void theWaitAndTheHoldAreObservedUnderTheCallersObservation() {
        RedisLock lock = observedClient(b -> { }).getLock("order:1");
        Observation caller = Observation.start("caller", registry);
        try (Observation.Scope ignored = caller.openScope()) {
            lock.lock();
            lock.lock();  // a re-entry: one more acquisition, the same hold
        }

        assertThat(registry).hasNumberOfObservationsWithNameEqualTo(ACQUIRE, 2)
                .forAllObservationsWithNameEqualTo(ACQUIRE, acquire -> acquire.hasParentObservationEqualTo(caller)
                        .hasLowCardinalityKeyValue("name", "order")
                        .hasLowCardinalityKeyValue("type", "reentrant")
                        .hasLowCardinalityKeyValue("result", "acquired")
                        .hasHighCardinalityKeyValue("lock", "order:1")
                        .doesNotHaveError());
        assertThat(registry).hasObservationWithNameEqualTo(HELD).that()
                .hasParentObservationEqualTo(caller)
                .hasLowCardinalityKeyValue("name", "order")
                .hasLowCardinalityKeyValue("type", "reentrant")
                .doesNotHaveLowCardinalityKeyValueWithKey("result")
                .hasBeenStarted().isNotStopped();

        lock.unlock();
        assertThat(registry).as("the hold lasts until its last release")
                .hasObservationWithNameEqualTo(HELD).that().isNotStopped();
        lock.unlock();
        assertThat(registry).hasNumberOfObservationsWithNameEqualTo(HELD, 1)
                .hasObservationWithNameEqualTo(HELD).that().hasBeenStopped().doesNotHaveError();
        caller.stop();
        recorded.assertEachStoppedOnce();
    }

    @Test
    void anAttemptThatMayNotWaitFindsTheLockBusyRatherThanTimingOut() {
        RedisLock held = clients.open(redis.server()).getLock("busy");
        held.lock();
        RedisLock lock = observedClient(b -> { }).getLock("busy");

        assertThat(lock.tryLock()).isFalse();

        assertThat(registry).hasSingleObservationThat().hasNameEqualTo(ACQUIRE)
                .hasLowCardinalityKeyValue("result", "busy")
                .hasBeenStopped();
        recorded.assertEachStoppedOnce();
    }

    @Test
    void anAcquisitionThatTimesOutIsObservedWithItsResultAndStartsNoHold() throws InterruptedException {
        RedisLock held = clients.open(redis.server()).getLock("busy");
        held.lock();
        RedisLock lock = observedClient(b -> { }).getLock("busy");

        assertThat(lock.tryLock(100, TimeUnit.MILLISECONDS)).isFalse();

        assertThat(registry).hasSingleObservationThat().hasNameEqualTo(ACQUIRE)
                .hasLowCardinalityKeyValue("result", "timeout")
                .doesNotHaveParentObservation()
                .hasBeenStopped();
        recorded.assertEachStoppedOnce();
    }

    @Test
    void aRedisFailureIsTheAcquisitionsErrorAsRedisGaveIt() {
        RedisLock lock = observedClient(b -> { }).getLock("unreachable");
        redis.server().stop();

        assertThatThrownBy(() -> lock.tryLock(0, TimeUnit.SECONDS)).isInstanceOf(LockException.class);

        assertThat(registry).hasObservationWithNameEqualTo(ACQUIRE).that()
                .hasLowCardinalityKeyValue("result", "error")
                .assertThatError().isNotNull().isNotInstanceOfAny(CompletionException.class, ExecutionException.class);
        recorded.assertEachStoppedOnce();
    }

    @Test
    void aFailedRenewalIsAnEventOfTheHold() {
        Duration watchdog = Duration.ofSeconds(6);  // renews every 2 s; a renewal call gets 1 s to answer
        RedisLock lock = observedClient(b -> b.watchdogTimeout(watchdog)).getLock("renewed");
        lock.lock();

        redis.server().pause();
        try {
            awaitTrue("a renewal without an answer is reported on the hold", watchdog,
                    () -> recorded.events(HELD).contains(LockObservationContext.RENEWAL_FAILED));
        } finally {
            redis.server().resume();
        }
        assertThat(registry).hasObservationWithNameEqualTo(HELD).that()
                .hasEvent(LockObservationContext.RENEWAL_FAILED).isNotStopped();

        lock.unlock();
        assertThat(registry).hasObservationWithNameEqualTo(HELD).that().hasBeenStopped().doesNotHaveError();
        recorded.assertEachStoppedOnce();
    }

    @Test
    void aLostLeaseEndsTheHoldWithTheLossAsItsError() {
        Duration watchdog = Duration.ofSeconds(1);
        RedisLock lock = observedClient(b -> b.watchdogTimeout(watchdog)).getLock("lost");
        lock.lock();

        redis.flushAll();  // the lease is gone: the watchdog finds out at its next renewal
        awaitTrue("the hold's observation ends", watchdog.multipliedBy(10), () -> stoppedInRegistry(HELD));
        assertThat(registry).hasObservationWithNameEqualTo(HELD).that().hasBeenStopped()
                .assertThatError().isInstanceOf(LockLostException.class).hasMessageContaining("'lost'");

        assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class);
        recorded.assertEachStoppedOnce();
    }

    /** The holder was told its lease could end: the hold ends with that error, though released normally after. */
    @Test
    void aLeaseAtRiskEndsTheHoldWithWhatTheHolderWasTold() throws Exception {
        RedisLock lock = observedClient(b -> { }).getLock("at-risk");
        assertThat(lock.tryLock(0, 500, TimeUnit.MILLISECONDS)).isTrue();
        lock.whenLost().toCompletableFuture().get(10, TimeUnit.SECONDS);
        try {
            lock.unlock();
        } catch (LockLostException ranOut) {
            // a loaded machine may reach the release after the lease ended
        }
        assertThat(registry).hasObservationWithNameEqualTo(HELD).that().hasBeenStopped()
                .assertThatError().isInstanceOf(LockLostException.class).hasMessageContaining("explicit lease of 500 ms");
        recorded.assertEachStoppedOnce();
    }

    @Test
    void aHoldIsStoppedEvenWhenReportingItsLossFails() {
        registry.observationConfig().observationHandler(new ObservationHandler<>() {
            @Override
            public void onError(Observation.Context context) {
                throw new IllegalStateException("a handler's bug, on an error");
            }

            @Override
            public boolean supportsContext(Observation.Context context) {
                return true;
            }
        });
        Duration watchdog = Duration.ofSeconds(1);
        RedisLock lock = observedClient(b -> b.watchdogTimeout(watchdog)).getLock("lost-badly");
        lock.lock();

        redis.flushAll();
        awaitTrue("the hold's observation ends", watchdog.multipliedBy(10), () -> recorded.stops(HELD) == 1);
        assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class);
        recorded.assertEachStoppedOnce();
    }

    @Test
    void aClientReportsItsLocksUnderTheTypeItWasGiven() {
        RecordingListener events = new RecordingListener();
        RedisLock lock = observedClient(b -> b.reportedLockType(RedLock.LOCK_TYPE).listener(events)).getLock("job");
        lock.lock();
        lock.unlock();

        assertThat(registry).forAllObservationsWithNameEqualTo(ACQUIRE,
                        acquire -> acquire.hasLowCardinalityKeyValue("type", RedLock.LOCK_TYPE))
                .forAllObservationsWithNameEqualTo(HELD, held -> held.hasLowCardinalityKeyValue("type", RedLock.LOCK_TYPE));
        assertThat(events.acquired).singleElement().satisfies(e -> assertThat(e.lockType()).isEqualTo(RedLock.LOCK_TYPE));
    }

    @Test
    void aGlobalConventionOfTheRegistryChangesTheKeyValues() {
        registry.observationConfig().observationConvention(new WithTeam());
        RedisLock lock = observedClient(b -> { }).getLock("order:2");
        lock.lock();
        lock.unlock();

        assertThat(registry).hasObservationWithNameEqualTo(ACQUIRE).that()
                .hasLowCardinalityKeyValue("team", "orders").hasLowCardinalityKeyValue("name", "order");
        assertThat(registry).hasObservationWithNameEqualTo(HELD).that().doesNotHaveLowCardinalityKeyValueWithKey("team");
    }

    /** An application's convention for acquisitions: the default one, plus a key value. */
    private static final class WithTeam extends DefaultLockObservationConvention
            implements GlobalObservationConvention<LockObservationContext> {

        WithTeam() {
            super(LockObservationContext.Kind.ACQUIRE);
        }

        @Override
        public KeyValues getLowCardinalityKeyValues(LockObservationContext context) {
            return super.getLowCardinalityKeyValues(context).and("team", "orders");
        }
    }

    @Test
    void aHandlerThatThrowsNeverStopsTheLock() throws InterruptedException {
        ObservationRegistry failing = ObservationRegistry.create();
        failing.observationConfig().observationHandler(new ObservationHandler<>() {
            @Override
            public void onStart(Observation.Context context) {
                if (context.getName().equals(HELD)) {
                    throw new IllegalStateException("a handler's bug, at the start of a hold");
                }
            }

            @Override
            public void onStop(Observation.Context context) {
                throw new IllegalStateException("a handler's bug, at the end of " + context.getName());
            }

            @Override
            public boolean supportsContext(Observation.Context context) {
                return true;
            }
        });
        LockClient client = clients.open(redis.server(), b -> b.observationRegistry(failing));
        RedisLock lock = client.getLock("guarded");

        assertThat(lock.tryLock(5, TimeUnit.SECONDS)).isTrue();
        assertThat(client.getLock("guarded").isHeldByCurrentThread()).isTrue();
        assertThat(client.watchdogHoldCount()).as("the hold is renewed").isEqualTo(1);
        lock.unlock();
        assertThat(client.getLock("guarded").isLocked()).isFalse();
    }

    @Test
    void aClientIsObservedOnlyWithARegistryThatObserves() {
        assertThat(observedClient(b -> { }).isObserved()).isTrue();
        assertThat(clients.open(redis.server()).isObserved()).isFalse();
        assertThat(clients.open(redis.server(), b -> b.observationRegistry(ObservationRegistry.NOOP)).isObserved())
                .isFalse();
    }

    @Test
    void closingTheClientEndsTheObservationsOfItsHolds() {
        LockClient client = observedClient(b -> { });
        client.getLock("kept").lock();

        client.close();

        assertThat(registry).hasObservationWithNameEqualTo(HELD).that().hasBeenStopped();
        recorded.assertEachStoppedOnce();
    }

    /**
     * Random interleavings of holders acquiring (blocking, timed, immediate) and releasing a few
     * locks, re-entries included. The oracle is the callers' own count of what they did, not the
     * library: one acquisition observation per call with the result the call returned, and one
     * hold observation per first hold, each stopped exactly once.
     */
    @Test
    void randomInterleavingsObserveEachAcquisitionAndEachFirstHoldOnce() throws Exception {
        long seed = Long.getLong("distlock.observation.seed", System.nanoTime());
        LockClient client = observedClient(b -> { });
        int threads = 4;
        int steps = 150;
        AtomicInteger attempts = new AtomicInteger();
        AtomicInteger acquired = new AtomicInteger();
        AtomicInteger firstHolds = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Random random = new Random(seed + t);
                done.add(pool.submit(() -> {
                    Map<String, Integer> mine = new HashMap<>();  // this holder's hold count per lock
                    for (int step = 0; step < steps; step++) {
                        String name = "random:" + random.nextInt(3);
                        RedisLock lock = client.getLock(name);
                        int count = mine.getOrDefault(name, 0);
                        if (count > 0 && random.nextBoolean()) {
                            lock.unlock();
                            mine.put(name, count - 1);
                            continue;
                        }
                        attempts.incrementAndGet();
                        if (lock.tryLock(random.nextInt(3) * 20L, TimeUnit.MILLISECONDS)) {
                            acquired.incrementAndGet();
                            if (count == 0) {
                                firstHolds.incrementAndGet();
                            }
                            mine.put(name, count + 1);
                        }
                    }
                    mine.forEach((name, count) -> {
                        for (int i = 0; i < count; i++) {
                            client.getLock(name).unlock();
                        }
                    });
                    return null;
                }));
            }
            for (Future<?> each : done) {
                each.get(45, TimeUnit.SECONDS);  // within the class's 60 s timeout
            }
        } finally {
            pool.shutdownNow();
        }

        String replay = " (replay with -Ddistlock.observation.seed=" + seed + ")";
        assertThat(recorded.starts(ACQUIRE)).as("acquisitions observed" + replay).isEqualTo(attempts.get());
        assertThat(recorded.results("acquired")).as("acquisitions observed as acquired" + replay)
                .isEqualTo(acquired.get());
        assertThat(recorded.starts(HELD)).as("holds observed" + replay).isEqualTo(firstHolds.get());
        recorded.assertEachStoppedOnce();
    }

    /**
     * @return whether the test registry has the observation stopped. Polled on it, not on the
     *         recorder: handlers stop in reverse order, so the recorder hears of a stop made on
     *         another thread before the test registry has recorded it
     */
    private boolean stoppedInRegistry(String name) {
        try {
            assertThat(registry).hasObservationWithNameEqualTo(name).that().hasBeenStopped();
            return true;
        } catch (AssertionError notYet) {
            return false;
        }
    }

    private LockClient observedClient(Consumer<LockClient.Builder> settings) {
        return clients.open(redis.server(), b -> settings.accept(b.observationRegistry(registry)));
    }

    /** Counts, per observation, its starts and stops, and the events of each observation name. */
    private static final class Recorder implements ObservationHandler<Observation.Context> {

        private final Map<Observation.Context, AtomicInteger> starts = new ConcurrentHashMap<>();
        private final Map<Observation.Context, AtomicInteger> stops = new ConcurrentHashMap<>();
        private final Map<String, List<String>> events = new ConcurrentHashMap<>();

        @Override
        public void onStart(Observation.Context context) {
            starts.computeIfAbsent(context, c -> new AtomicInteger()).incrementAndGet();
        }

        @Override
        public void onStop(Observation.Context context) {
            stops.computeIfAbsent(context, c -> new AtomicInteger()).incrementAndGet();
        }

        @Override
        public void onEvent(Observation.Event event, Observation.Context context) {
            events.computeIfAbsent(context.getName(), n -> new CopyOnWriteArrayList<>())
                    .add(event.getName());
        }

        @Override
        public boolean supportsContext(Observation.Context context) {
            return true;
        }

        List<String> events(String name) {
            return events.getOrDefault(name, List.of());
        }

        long starts(String name) {
            return starts.keySet().stream().filter(c -> name.equals(c.getName())).count();
        }

        long stops(String name) {
            return stops.keySet().stream().filter(c -> name.equals(c.getName())).count();
        }

        long results(String result) {
            return stops.keySet().stream()
                    .filter(c -> ACQUIRE.equals(c.getName()) && result.equals(valueOf(c, "result"))).count();
        }

        private static String valueOf(Observation.Context context, String key) {
            KeyValue keyValue = context.getLowCardinalityKeyValue(key);
            return keyValue == null ? null : keyValue.getValue();
        }

        /** Every observation started was stopped, once, and none was stopped without a start. */
        void assertEachStoppedOnce() {
            assertThat(stops.keySet()).as("observations stopped").containsExactlyInAnyOrderElementsOf(starts.keySet());
            assertThat(starts.values()).as("starts per observation").allSatisfy(n -> assertThat(n.get()).isEqualTo(1));
            assertThat(stops.values()).as("stops per observation").allSatisfy(n -> assertThat(n.get()).isEqualTo(1));
        }
    }
}

package io.distlock.core;

import com.google.errorprone.annotations.Immutable;
import io.distlock.core.internal.engine.Lease;
import io.distlock.core.internal.engine.SettableLease;
import io.distlock.test.RedisExtension;
import io.distlock.test.RedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Function;

import static io.distlock.test.Polling.awaitTrue;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/** All or nothing over locks of two independent Redis servers. */
@Timeout(60)
class MultiLockTest {

    @RegisterExtension
    static RedisExtension redis = RedisExtension.nodes(2);

    @RegisterExtension
    final TestClients clients = new TestClients();

    private MultiLock multi(LockClient first, LockClient second, String... names) {
        return new MultiLock(first.getLock(names[0]), second.getLock(names[1]), first.getLock(names[2]));
    }

    @Test
    void locksEveryComponentAcrossServersAndReleasesThemAll() throws Exception {
        LockClient a = clients.open(redis.server(0));
        LockClient b = clients.open(redis.server(1));
        MultiLock all = multi(a, b, "x", "y", "z");

        assertThat(all.tryLock(1, TimeUnit.SECONDS)).isTrue();
        assertThat(all.isHeldByCurrentThread()).isTrue();
        assertThat(all.getHoldCount()).isEqualTo(1);
        assertThat(all.remainingTimeToLive()).isPositive();
        assertThat(redis.server(1).commandString("EXISTS", "distlock:{y}")).isEqualTo("1");
        all.unlock();
        assertThat(all.locks()).noneMatch(RedisLock::isLocked);
        assertThat(all.remainingTimeToLive()).isEqualTo(-2);
    }

    @Test
    void oneBusyComponentMeansNothingIsHeldAndTheWaitIsHonouredOnce() throws Exception {
        LockClient a = clients.open(redis.server(0));
        LockClient b = clients.open(redis.server(1));
        RedisLock busy = clients.open(redis.server(1)).getLock("y2");
        assertThat(CompletableFuture.supplyAsync(busy::tryLock).get(10, TimeUnit.SECONDS)).isTrue();
        MultiLock all = multi(a, b, "x2", "y2", "z2");

        long start = System.nanoTime();
        assertThat(all.tryLock(400, TimeUnit.MILLISECONDS)).isFalse();
        long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertThat(elapsed).isBetween(350L, 2_000L);
        assertThat(a.getLock("x2").isLocked()).as("the first component was given back").isFalse();
        assertThat(a.getLock("z2").isLocked()).isFalse();
        assertThat(all.tryLock()).isFalse();
        assertThat(a.getLock("x2").isLocked()).isFalse();
    }

    @Test
    void asyncHoldersAcquireAllOrNothingAndCancellingGivesEverythingBack() throws Exception {
        LockClient a = clients.open(redis.server(0));
        LockClient b = clients.open(redis.server(1));
        MultiLock all = multi(a, b, "x3", "y3", "z3");

        assertThat(all.tryLockAsync(0, 0, TimeUnit.SECONDS, "job-1").get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(all.isHeldBy("job-1")).isTrue();
        assertThat(all.tryLockAsync(100, 0, TimeUnit.MILLISECONDS, "job-2").get(10, TimeUnit.SECONDS)).isFalse();

        CompletableFuture<Boolean> waiting = all.tryLockAsync(30, 0, TimeUnit.SECONDS, "job-3");
        waiting.cancel(false);
        all.unlockAsync("job-1").get(10, TimeUnit.SECONDS);

        assertThat(all.tryLockAsync(5, 0, TimeUnit.SECONDS, "job-4").get(10, TimeUnit.SECONDS))
                .as("the cancelled acquisition left nothing behind").isTrue();
        assertThat(all.isHeldBy("job-3")).isFalse();
        all.unlockAsync("job-4").get(10, TimeUnit.SECONDS);
        for (String name : List.of("x3", "z3")) {
            assertThat(redis.server(0).commandString("EXISTS", "distlock:{" + name + "}")).isEqualTo("0");
        }
        assertThat(redis.server(1).commandString("EXISTS", "distlock:{y3}")).isEqualTo("0");
    }

    /** Lease of the multi-locks below; another client holds their last component for {@link #BUSY_MILLIS}. */
    private static final long LEASE_MILLIS = 2_000;
    private static final long BUSY_MILLIS = 1_500;

    @Test
    @Timeout(30)
    void anExplicitLeaseStartsOnceEveryComponentIsHeld() throws Exception {
        leaseStartsOnceEveryComponentIsHeld("lease", LockClient::getLock, LockClient::getLock,
                both -> both.tryLock(5_000, LEASE_MILLIS, MILLISECONDS));
    }

    @Test
    @Timeout(30)
    void anAsyncExplicitLeaseStartsOnceEveryComponentIsHeld() throws Exception {
        leaseStartsOnceEveryComponentIsHeld("async-lease", LockClient::getLock, LockClient::getLock,
                both -> both.tryLockAsync(5_000, LEASE_MILLIS, MILLISECONDS, "job").get(10, SECONDS));
    }

    @Test
    @Timeout(30)
    void readLocksGetTheirFullLeaseOnceEveryComponentIsHeld() throws Exception {
        leaseStartsOnceEveryComponentIsHeld("rw-lease", (client, name) -> client.getReadWriteLock(name).readLock(),
                (client, name) -> client.getReadWriteLock(name).writeLock(),
                both -> both.tryLock(5_000, LEASE_MILLIS, MILLISECONDS));
    }

    /**
     * The holder takes the first component a second time, with a long lease of its own, while the
     * multi-lock waits for the second: setting the multi-lock's lease must not cut that hold short.
     */
    @Test
    @Timeout(30)
    void theLeaseOfAMultiLockNeverShortensAnotherHoldOfTheSameHolder() throws Exception {
        LockClient client = clients.open(redis.server(0));
        RedisLock first = client.getLock("shared-a");
        RedisLock rival = clients.open(redis.server(0)).getLock("shared-b");
        rival.lock();
        MultiLock both = new MultiLock(first, client.getLock("shared-b"));

        CompletableFuture<Boolean> multi = both.tryLockAsync(10_000, LEASE_MILLIS, MILLISECONDS, "job");
        awaitTrue("the multi-lock holds its first component", Duration.ofSeconds(10), () -> first.isHeldBy("job"));
        assertThat(first.tryLockAsync(0, 60, SECONDS, "job").get(10, SECONDS)).as("second hold of 'job'").isTrue();
        rival.unlock();
        assertThat(multi.get(10, SECONDS)).isTrue();

        long ttl = Long.parseLong(redis.server(0).commandString("PTTL", "distlock:{shared-a}"));
        assertThat(ttl).as("the 60 s hold keeps its lease").isGreaterThan(50_000);
    }

    /**
     * A plain and a fenced lock of one name share one hash: the calling thread holds it through
     * the plain lock with a long lease, then takes a multi-lock whose fenced component re-enters
     * that hold. The client sees one fenced hold, but Redis counts two, so the multi-lock's shorter
     * lease must not cut the plain hold short.
     */
    @Test
    @Timeout(30)
    void theLeaseOfAMultiLockNeverShortensAHoldOfAnotherKindUnderTheSameName() throws Exception {
        LockClient client = clients.open(redis.server(0));
        RedisLock plain = client.getLock("mixed-a");
        plain.lock(60, SECONDS);
        MultiLock both = new MultiLock(client.getFencedLock("mixed-a"), client.getLock("mixed-b"));

        assertThat(both.tryLock(5_000, LEASE_MILLIS, MILLISECONDS)).isTrue();
        long ttl = Long.parseLong(redis.server(0).commandString("PTTL", "distlock:{mixed-a}"));
        assertThat(ttl).as("the plain 60 s hold keeps its lease").isGreaterThan(50_000);

        both.unlock();
        plain.unlock();
        assertThat(plain.isLocked()).isFalse();
    }

    /** How a test takes the multi-lock. */
    private interface Acquisition {
        boolean of(MultiLock lock) throws Exception;
    }

    /**
     * A rival holds the second component for {@link #BUSY_MILLIS}; once the multi-lock has both,
     * each has its full lease, and the rival kind is kept out of the first until that lease ends.
     */
    private void leaseStartsOnceEveryComponentIsHeld(String name, BiFunction<LockClient, String, RedisLock> component,
                                                     BiFunction<LockClient, String, RedisLock> rival,
                                                     Acquisition acquisition) throws Exception {
        LockClient a = clients.open(redis.server(0));
        LockClient b = clients.open(redis.server(1));
        rival.apply(clients.open(redis.server(1)), name + "-b").lock(BUSY_MILLIS, MILLISECONDS);
        MultiLock both = new MultiLock(component.apply(a, name + "-a"), component.apply(b, name + "-b"));

        assertThat(acquisition.of(both)).isTrue();
        long heldAt = System.nanoTime();

        assertFullLease(redis.server(0), name + "-a");
        assertFullLease(redis.server(1), name + "-b");
        assertExcludesUntilTheLeaseEnds(rival.apply(clients.open(redis.server(0)), name + "-a"), heldAt);
    }

    @Test
    @Timeout(30)
    void nestedCompositesAndRedLocksGetTheirFullLeaseToo() throws Exception {
        LockClient a = clients.open(redis.server(0));
        LockClient b = clients.open(redis.server(1));
        clients.open(redis.server(1)).getLock("nested-last").lock(BUSY_MILLIS, MILLISECONDS);
        MultiLock all = new MultiLock(new RedLock(a.getLock("nested-red"), b.getLock("nested-red")),
                new MultiLock(a.getLock("nested-inner")), b.getLock("nested-last"));

        assertThat(all.tryLock(5_000, LEASE_MILLIS, MILLISECONDS)).isTrue();

        assertFullLease(redis.server(0), "nested-red");
        assertFullLease(redis.server(1), "nested-red");
        assertFullLease(redis.server(0), "nested-inner");
        assertFullLease(redis.server(1), "nested-last");
        all.unlock();
        assertThat(all.locks()).noneMatch(RedisLock::isLocked);
    }

    /** How a test acquires a multi-lock, on a thread of its own; the future fails with what the call threw. */
    enum Acquire {
        WITH_LEASE(both -> both.tryLock(5_000, LEASE_MILLIS, MILLISECONDS)),
        WITH_WATCHDOG(both -> {
            both.lock();
            return true;
        }),
        ASYNC_WITH_WATCHDOG(both -> both.tryLockAsync(5_000, -1, MILLISECONDS, "async-holder")
                .orTimeout(10, SECONDS).join());

        private final Call call;

        Acquire(Call call) {
            this.call = call;
        }

        @Immutable
        interface Call {
            boolean on(MultiLock lock) throws Exception;
        }

        CompletableFuture<Boolean> start(MultiLock lock) {
            return CompletableFuture.supplyAsync(() -> {
                try {
                    return call.on(lock);
                } catch (RuntimeException e) {
                    throw e;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, ON_A_NEW_THREAD);
        }
    }

    /**
     * The first component's hold is gone while the multi-lock waits for the second (deleted here;
     * in production: renewals that failed for a lease, a frozen JVM): with a lease or without
     * (watchdog), the multi-lock must not be acquired with a component missing. The watchdog
     * timeout is short, so that the wait outlasts half of it and the component must be confirmed.
     */
    @ParameterizedTest
    @EnumSource(Acquire.class)
    @Timeout(30)
    void aComponentLostWhileWaitingForTheOthersFailsTheAcquisitionAndIsReported(Acquire acquire) throws Exception {
        RecordingListener events = new RecordingListener();
        LockClient a = clients.open(redis.server(0), builder -> builder.listener(new SlowLossListener())
                .listener(events).watchdogTimeout(Duration.ofSeconds(1)));
        LockClient b = clients.open(redis.server(1));
        String first = "lost-a-" + acquire;
        String last = "lost-b-" + acquire;
        clients.open(redis.server(1)).getLock(last).lock(BUSY_MILLIS, MILLISECONDS);
        MultiLock both = new MultiLock(a.getLock(first), b.getLock(last));

        CompletableFuture<Boolean> acquiring = acquire.start(both);
        awaitTrue("the multi-lock holds " + first, Duration.ofSeconds(5), () -> a.getLock(first).isLocked());
        redis.server(0).command("DEL", "distlock:{" + first + "}");

        assertThatThrownBy(() -> acquiring.get(10, SECONDS)).hasCauseInstanceOf(LockLostException.class);
        assertThat(events.lost).as("the loss was delivered before the acquisition failed").hasSize(1);
        assertThat(b.getLock(last).isLocked()).as("the other component was given back").isFalse();
    }

    /**
     * Without a lease, a component is confirmed by Redis only once enough time passed that its
     * lease could have run out unrenewed: a quick acquisition costs no extra round trip.
     */
    @Test
    void aWatchdogComponentIsAskedForOnlyOnceItsLeaseCouldHaveEnded() throws Exception {
        LockClient a = clients.open(redis.server(0));  // the watchdog's 30 s: it will not notice the deletion
        RedisLock component = a.getLock("confirm");
        SettableLease settable = (SettableLease) component;
        long startedNanos = System.nanoTime();
        assertThat(component.tryLockAsync(0, -1, MILLISECONDS, "holder").get(10, SECONDS)).isTrue();
        redis.server(0).command("DEL", "distlock:{confirm}");
        ScriptStats.reset(redis.server(0));

        settable.leaseFromNow("holder", Lease.watchdog(), startedNanos).get(10, SECONDS);
        assertThat(ScriptStats.scriptCalls(redis.server(0))).as("scripts run to confirm a hold just taken").isZero();

        assertThatThrownBy(() -> settable.leaseFromNow("holder", Lease.watchdog(), startedNanos - SECONDS.toNanos(30)).get(10, SECONDS))
                .as("a hold taken a whole lease ago is asked for").hasCauseInstanceOf(LockLostException.class);
    }

    @Test
    @Timeout(60)
    void aWaiterThatSawTheWatchdogsLeaseIsWokenWhenTheShorterLeaseIsSet() throws Exception {
        LockClient a = clients.open(redis.server(0));
        LockClient b = clients.open(redis.server(1));
        RedisLock busy = clients.open(redis.server(1)).getLock("wake-b");
        RecordingListener waiterEvents = new RecordingListener();
        LockClient waiters = clients.open(redis.server(0), builder -> builder.listener(waiterEvents));
        record Kind(String name, Function<LockClient, RedisLock> held, Function<LockClient, RedisLock> waiting) {
        }
        for (Kind kind : List.of(
                new Kind("reentrant", c -> c.getLock("wake-reentrant"), c -> c.getLock("wake-reentrant")),
                new Kind("fair", c -> c.getFairLock("wake-fair"), c -> c.getFairLock("wake-fair")),
                new Kind("read-write", c -> c.getReadWriteLock("wake-rw").readLock(),
                        c -> c.getReadWriteLock("wake-rw").writeLock()))) {
            waiterEvents.waiting.clear();
            busy.lock();
            MultiLock both = new MultiLock(kind.held().apply(a), b.getLock("wake-b"));
            CompletableFuture<Long> heldAt = CompletableFuture.supplyAsync(() -> acquiredAt(both, LEASE_MILLIS),
                    ON_A_NEW_THREAD);
            awaitTrue(kind.name() + ": the multi-lock holds its first lock", Duration.ofSeconds(5),
                    () -> kind.held().apply(a).isLocked());
            CompletableFuture<Long> waiterGotItAt = CompletableFuture.supplyAsync(
                    () -> acquiredAt(kind.waiting().apply(waiters), -1), ON_A_NEW_THREAD);
            awaitTrue(kind.name() + ": the waiter waits", Duration.ofSeconds(5), () -> !waiterEvents.waiting.isEmpty());
            busy.unlock();

            long waitedMillis = TimeUnit.NANOSECONDS.toMillis(waiterGotItAt.get(20, SECONDS) - heldAt.get(5, SECONDS));
            assertThat(waitedMillis).as(kind.name() + ": how long after the multi-lock the waiter got the lock")
                    .isBetween(LEASE_MILLIS - 400, LEASE_MILLIS + 2_000);
        }
    }

    /**
     * Runs each acquisition as a holder of its own. The holds of these tests end with their lease,
     * unreleased: a pooled thread that comes back in a later round would re-enter a hold whose
     * lease ran out, which is reported lost (Java 25's common pool reuses its workers).
     */
    private static final Executor ON_A_NEW_THREAD = task -> new Thread(task).start();

    /**
     * @param leaseMillis the lease; {@code -1}: the watchdog's
     * @return {@link System#nanoTime()} when the lock was acquired (within 15 s)
     */
    private static long acquiredAt(RedisLock lock, long leaseMillis) {
        try {
            assertThat(lock.tryLock(15_000, leaseMillis, MILLISECONDS)).as(lock + " acquired").isTrue();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
        return System.nanoTime();
    }

    /** The lock's lease was set at most a moment ago and is the multi-lock's full lease. */
    private static void assertFullLease(RedisServer server, String name) {
        long ttl = Long.parseLong(server.commandString("PTTL", "distlock:{" + name + "}"));
        assertThat(ttl).as("PTTL of " + name).isBetween(LEASE_MILLIS - 400, LEASE_MILLIS);
    }

    /** Another client gets the lock only once the multi-lock's lease, from {@code heldAt}, ran out. */
    private static void assertExcludesUntilTheLeaseEnds(RedisLock other, long heldAt) throws InterruptedException {
        assertThat(other.tryLock(10, SECONDS)).isTrue();
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - heldAt))
                .as("when another client got the lock").isGreaterThanOrEqualTo(LEASE_MILLIS - 400);
    }

    /**
     * A MultiLock nested in another, one of whose components Redis does not answer (its release
     * sent twice within its command limit): the inner MultiLock releases its other component and
     * fails with LockException. The outer one used to release the inner one again, which released
     * that other component a second time, taking the hold its holder had of it before.
     */
    @Test
    void aNestedMultiLockWhoseReleaseFailedIsNotReleasedAgain() throws Exception {
        LockClient a = clients.open(redis.server(0));
        LockClient b = clients.open(redis.server(1), builder -> builder.commandTimeout(Duration.ofMillis(300)));
        RedisLock alsoHeldAlone = a.getLock("nested-held");
        MultiLock inner = new MultiLock(alsoHeldAlone, b.getLock("nested-unanswered"));
        MultiLock outer = new MultiLock(inner, a.getLock("nested-last"));
        alsoHeldAlone.lock();
        outer.lock();
        assertThat(alsoHeldAlone.getHoldCount()).isEqualTo(2);

        redis.server(1).pause();
        Throwable failure;
        try {
            failure = catchThrowable(outer::unlock);
        } finally {
            redis.server(1).resume();
        }

        assertThat(failure).isExactlyInstanceOf(LockException.class);
        assertThat(a.getLock("nested-last").isLocked()).isFalse();
        assertThat(alsoHeldAlone.getHoldCount()).as("the composite's hold released once, the holder's own kept")
                .isEqualTo(1);
        assertThat(alsoHeldAlone.isHeldByCurrentThread()).isTrue();
        alsoHeldAlone.unlock();
        assertThat(alsoHeldAlone.isLocked()).isFalse();
        awaitTrue("the paused server ran the release sent to it", Duration.ofSeconds(10),
                () -> "0".equals(redis.server(1).commandString("EXISTS", "distlock:{nested-unanswered}")));
    }

    /**
     * Without a lease, a component that cannot be asked whether it still holds (a lock of the
     * application's own, not a {@link SettableLease}) is taken as it is, also inside a nested
     * composite; with a lease it is refused before anything is acquired.
     */
    @Test
    void aLockOfTheApplicationsOwnInsideANestedMultiLockIsTakenAsItIs() throws Exception {
        LockClient a = clients.open(redis.server(0));
        LockClient b = clients.open(redis.server(1));
        RedisLock own = ownLock(a.getLock("own"));
        MultiLock outer = new MultiLock(new MultiLock(own, a.getLock("own-x")), b.getLock("own-y"));

        outer.lock();
        assertThat(outer.isHeldByCurrentThread()).isTrue();
        assertThat(outer.leaseFromNow(Lease.watchdog(), System.nanoTime() - SECONDS.toNanos(60)).get(10, SECONDS))
                .as("confirmed, asking only the locks that can be asked").isNull();
        outer.unlock();
        assertThat(outer.locks()).noneMatch(RedisLock::isLocked);
        assertThatThrownBy(() -> outer.tryLock(1, 5, SECONDS)).isInstanceOf(UnsupportedOperationException.class);
        assertThat(a.getLock("own").isLocked()).isFalse();
    }

    /** @return the lock behind an interface of the application's own: a RedisLock and nothing else */
    private static RedisLock ownLock(RedisLock lock) {
        return (RedisLock) Proxy.newProxyInstance(RedisLock.class.getClassLoader(), new Class<?>[] {RedisLock.class},
                (proxy, method, args) -> {
                    try {
                        return method.invoke(lock, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @Test
    void aMultiLockNeedsLocks() {
        assertThatThrownBy(() -> new MultiLock(List.of())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least one");
        assertThatThrownBy(() -> new MultiLock((RedisLock) null)).isInstanceOf(NullPointerException.class);
    }
}

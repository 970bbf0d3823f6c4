package io.distlock.core;

import io.distlock.core.internal.scripts.Scripts;
import io.distlock.test.JavaProcess;
import io.distlock.test.RedisExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static io.distlock.test.Polling.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

/** FIFO across clients; waiters that die or give up never stall the queue. */
@Timeout(90)
class FairLockTest {

    private static final Duration SLOT = Duration.ofSeconds(2);

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    @RegisterExtension
    final TestClients clients = new TestClients();

    private LockClient client() {
        return client(SLOT);
    }

    private LockClient client(Duration slot) {
        return clients.open(redis.server(), b -> b.fairSlotTimeout(slot));
    }

    private static long queued(String name) {
        return Long.parseLong(redis.server().commandString("LLEN", "distlock:{" + name + "}:queue"));
    }

    @Test
    void waitersOfDifferentClientsGetTheLockInArrivalOrder() throws Exception {
        List<LockClient> waiterClients = List.of(client(), client(), client());
        RedisLock holder = client().getFairLock("fifo");
        holder.lock();  // watchdog lease: waiters are woken by the release, one by one

        List<Integer> order = new CopyOnWriteArrayList<>();
        List<CompletableFuture<?>> waiters = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            for (int i = 0; i < 6; i++) {
                int arrival = i;
                RedisLock lock = waiterClients.get(i % 3).getFairLock("fifo");
                waiters.add(CompletableFuture.runAsync(() -> {
                    lock.lock();
                    order.add(arrival);
                    lock.unlock();
                }, pool));
                awaitTrue("waiter " + i + " queued", Duration.ofSeconds(10), () -> queued("fifo") == arrival + 1);
            }
            holder.unlock();
            for (CompletableFuture<?> waiter : waiters) {
                waiter.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(order).containsExactly(0, 1, 2, 3, 4, 5);
        assertThat(queued("fifo")).isZero();
    }

    /**
     * Another holder of its own client has the name as a reentrant lock, and the client already
     * listens for the name's turns (a fair waiter of it queued before): a new fair acquisition
     * must still take its place in Redis's queue at once, since it cannot be handed that lock
     * locally, so that a fair waiter of another client that came later is served after it.
     */
    @Test
    void aFairWaiterQueuesInRedisWhileItsOwnClientHoldsTheNameAsAnotherKind() throws Exception {
        LockClient mine = client();
        LockClient theirs = client();
        RedisLock reentrant = mine.getLock("mixed");
        assertThat(reentrant.tryLockAsync(0, 1, TimeUnit.SECONDS, "holder").get(10, TimeUnit.SECONDS)).isTrue();
        RedisLock myFair = mine.getFairLock("mixed");
        CompletableFuture<Boolean> first = myFair.tryLockAsync(10, 5, TimeUnit.SECONDS, "first");
        awaitTrue("the first fair waiter queued", Duration.ofSeconds(10), () -> queued("mixed") == 1);

        CompletableFuture<Boolean> second = myFair.tryLockAsync(10, 5, TimeUnit.SECONDS, "second");
        awaitTrue("the second fair waiter of the same client queued too", Duration.ofSeconds(10),
                () -> queued("mixed") == 2);
        CompletableFuture<Boolean> third = theirs.getFairLock("mixed").tryLockAsync(10, 5, TimeUnit.SECONDS, "third");
        awaitTrue("the third, of another client, queued behind them", Duration.ofSeconds(10),
                () -> queued("mixed") == 3);
        reentrant.unlockAsync("holder").get(10, TimeUnit.SECONDS);

        assertThat(first.get(20, TimeUnit.SECONDS)).isTrue();
        myFair.unlockAsync("first").get(10, TimeUnit.SECONDS);
        assertThat(second.get(20, TimeUnit.SECONDS)).isTrue();
        assertThat(third).as("served after the second, which came first").isNotDone();
        myFair.unlockAsync("second").get(10, TimeUnit.SECONDS);
        assertThat(third.get(20, TimeUnit.SECONDS)).isTrue();
        theirs.getFairLock("mixed").unlockAsync("third").get(10, TimeUnit.SECONDS);
    }

    @Test
    void aWaiterThatGaveUpLeavesTheQueueAtOnce() throws Exception {
        RedisLock holder = client().getFairLock("gave-up");
        holder.lock();
        RedisLock impatient = client().getFairLock("gave-up");
        assertThat(CompletableFuture.supplyAsync(() -> {
            try {
                return impatient.tryLock(300, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }).get(10, TimeUnit.SECONDS)).isFalse();
        assertThat(queued("gave-up")).as("the timed-out waiter left").isZero();

        RedisLock next = client().getFairLock("gave-up");
        CompletableFuture<Long> waited = CompletableFuture.supplyAsync(() -> {
            long start = System.nanoTime();
            next.lock();
            next.unlock();
            return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        });
        awaitTrue("queued", Duration.ofSeconds(10), () -> queued("gave-up") == 1);
        long released = System.nanoTime();
        holder.unlock();
        waited.get(10, TimeUnit.SECONDS);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - released)).isLessThan(SLOT.toMillis());
    }

    /** One JVM with {@code dead} waiting threads dies: each of them holds up the queue for one slot. */
    @ParameterizedTest(name = "{0} dead waiter(s)")
    @ValueSource(ints = {1, 2})
    void killedWaitersHoldUpTheOnesBehindThemForOneSlotEach(int dead) throws Exception {
        RedisLock holder = client().getFairLock("killed");
        holder.lock();  // watchdog lease, 30 s: far longer than the slots the dead waiters may cost
        try (JavaProcess waiters = JavaProcess.start(LockHolderMain.class, redis.server().uri(), "killed", "30000",
                "fair", Integer.toString(dead))) {
            awaitTrue("the child's waiters are queued", Duration.ofSeconds(30), () -> queued("killed") == dead);
            waiters.kill();
        }
        RedisLock next = client().getFairLock("killed");
        CompletableFuture<Void> acquired = CompletableFuture.runAsync(() -> {
            next.lock();
            next.unlock();
        });
        awaitTrue("queued behind the dead waiters", Duration.ofSeconds(10), () -> queued("killed") == dead + 1);
        long released = System.nanoTime();
        holder.unlock();
        acquired.get(60, TimeUnit.SECONDS);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - released))
                .as("one slot (2 s) per dead waiter and some slack, not the holder's 30 s lease")
                .isLessThan(dead * SLOT.toMillis() + 2_000);
        assertThat(queued("killed")).isZero();
    }

    /**
     * Holders that let their leases run out, as Redisson's fair-lock tests do: nobody unlocks, so
     * nobody is told the lock is free, yet each waiter takes it about when the lease before it ends,
     * in arrival order. The slot is far longer than a lease, so a waiter sleeping out a slot shows.
     */
    @Test
    void leasesThatRunOutHandTheLockOnInArrivalOrder() throws Exception {
        Duration slot = Duration.ofSeconds(20);
        long leaseMillis = 2_000;
        int waiters = 4;
        RedisLock holder = client(slot).getFairLock("expiring");
        holder.lock();
        List<Integer> order = new CopyOnWriteArrayList<>();
        List<Long> acquiredAt = new CopyOnWriteArrayList<>();
        List<CompletableFuture<Boolean>> attempts = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(waiters);
        try {
            for (int i = 0; i < waiters; i++) {
                int arrival = i;
                RedisLock lock = client(slot).getFairLock("expiring");
                attempts.add(CompletableFuture.supplyAsync(() -> {
                    try {
                        boolean acquired = lock.tryLock(60_000, leaseMillis, TimeUnit.MILLISECONDS);  // never unlocked
                        acquiredAt.add(System.nanoTime());
                        order.add(arrival);
                        return acquired;
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                }, pool));
                awaitTrue("waiter " + i + " queued", Duration.ofSeconds(10), () -> queued("expiring") == arrival + 1);
            }
            acquiredAt.add(System.nanoTime());
            holder.unlock();
            for (CompletableFuture<Boolean> attempt : attempts) {
                assertThat(attempt.get(60, TimeUnit.SECONDS)).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
        List<Long> millisSinceRelease = acquiredAt.stream()
                .map(at -> TimeUnit.NANOSECONDS.toMillis(at - acquiredAt.get(0))).toList();
        assertThat(order).as("arrivals in the order they took the lock, at %s ms", millisSinceRelease)
                .isEqualTo(IntStream.range(0, waiters).boxed().toList());
        for (int i = 1; i < millisSinceRelease.size(); i++) {
            assertThat(millisSinceRelease.get(i) - millisSinceRelease.get(i - 1))
                    .as("hand-over %d of %s ms: about one lease (%d ms) after the one before, not a slot", i,
                            millisSinceRelease, leaseMillis)
                    .isLessThan(leaseMillis + 1_500);
        }
    }

    /**
     * In a busy queue only a release wakes waiters: it wakes the next waiter, and the one behind it
     * to look again when that turn ends. The next waiter taking the lock with the lease the one
     * before had wakes nobody, as every waiter's sleep already ends before its new turn does.
     */
    @Test
    void aHandOverWithTheSameLeaseWakesNobody() throws Exception {
        long leaseMillis = 30_000;
        RedisLock holder = client().getFairLock("hand-over");
        assertThat(holder.tryLock(0, leaseMillis, TimeUnit.MILLISECONDS)).isTrue();
        RedisLock lock = client().getFairLock("hand-over");
        List<CompletableFuture<Boolean>> waiters = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            waiters.add(lock.tryLockAsync(60_000, leaseMillis, TimeUnit.MILLISECONDS, "w" + i));
            int queuedSoFar = i + 1;
            awaitTrue("waiter " + i + " queued", Duration.ofSeconds(10), () -> queued("hand-over") == queuedSoFar);
        }
        ScriptStats.reset(redis.server());

        holder.unlock();
        assertThat(waiters.get(0).get(10, TimeUnit.SECONDS)).isTrue();

        assertThat(ScriptStats.publishes(redis.server()))
                .as("wake-ups: the release's two, none for the hand-over").isEqualTo(2);
        for (int i = 0; i < 3; i++) {
            assertThat(waiters.get(i).get(10, TimeUnit.SECONDS)).as("waiter %d, in turn", i).isTrue();
            lock.unlockAsync("w" + i).get(10, TimeUnit.SECONDS);
        }
    }

    /**
     * One holder waits with two overlapping acquisitions, another client's waiter behind them. The
     * holder's shorter wait ends: only its own place goes, so the holder's other acquisition is
     * still served before the waiter behind it.
     */
    @Test
    void aHolderWaitingTwiceKeepsItsOtherPlaceWhenOneWaitEnds() throws Exception {
        RedisLock held = client().getFairLock("twice");
        held.lock();
        RedisLock lock = client().getFairLock("twice");
        CompletableFuture<Boolean> shortWait = lock.tryLockAsync(500, 30_000, TimeUnit.MILLISECONDS, "h");
        CompletableFuture<Boolean> longWait = lock.tryLockAsync(20_000, 30_000, TimeUnit.MILLISECONDS, "h");
        awaitTrue("the holder queued", Duration.ofSeconds(10), () -> queued("twice") >= 1);
        long before = queued("twice");
        RedisLock behind = client().getFairLock("twice");
        CompletableFuture<Boolean> behindWait = behind.tryLockAsync(20_000, 30_000, TimeUnit.MILLISECONDS, "c");
        awaitTrue("the other client's waiter queued behind", Duration.ofSeconds(10),
                () -> queued("twice") == before + 1);

        assertThat(shortWait.get(10, TimeUnit.SECONDS)).as("the shorter wait ended").isFalse();
        held.unlock();

        assertThat(longWait.get(10, TimeUnit.SECONDS)).as("the holder's other acquisition is served first").isTrue();
        assertThat(behindWait).as("the waiter behind it still waits").isNotDone();
        lock.unlockAsync("h").get(10, TimeUnit.SECONDS);
        assertThat(behindWait.get(10, TimeUnit.SECONDS)).isTrue();
        behind.unlockAsync("c").get(10, TimeUnit.SECONDS);
    }

    /**
     * A waiter whose process died after it queued never comes back to leave: its place, and with
     * it the waiting room's keys, expires soon after its deadline rather than stay in Redis for ever (a
     * lock per entity would leave keys behind for every entity).
     */
    @Test
    void theWaitingRoomOfAWaiterWhoseProcessDiedExpires() throws Exception {
        String name = "abandoned-room";
        RedisLock holder = client().getFairLock(name);
        assertThat(holder.tryLock(0, 1_000, TimeUnit.MILLISECONDS)).isTrue();
        String lockKey = "distlock:{" + name + "}";
        List<String> room = List.of(lockKey + ":queue", lockKey + ":timeouts", lockKey + ":clients");
        // The 'lock' call of a waiter that dies at once: see fair.lua for KEYS and ARGV.
        redis.server().command("EVAL", Scripts.FAIR.source(), "4", lockKey, room.get(0), room.get(1), room.get(2),
                "lock", "dead-client:1", "300", lockKey + ":ch:", "publish", "30000", "dead.1", "0", "dead-client");
        assertThat(queued(name)).isEqualTo(1);
        for (String key : room) {
            assertThat((Long) redis.server().command("PTTL", key))
                    .as("%s expires at most a slot after the latest deadline", key)
                    .isBetween(1L, 1_000L + 300L + 300L + 100L);
        }

        awaitTrue("the waiting room is gone", Duration.ofSeconds(10),
                () -> room.stream().allMatch(key -> (Long) redis.server().command("EXISTS", key) == 0L));
    }

    /**
     * A lock hash without an expiry (PERSIST by hand, or a key written by something else) can be
     * free in no known time: its waiters look again once a slot, not every millisecond.
     */
    @Test
    void aLockWithoutExpiryDoesNotMakeItsWaitersPoll() throws Exception {
        RedisLock holder = client().getFairLock("persisted");
        assertThat(holder.tryLock(0, 60, TimeUnit.SECONDS)).isTrue();
        redis.server().command("PERSIST", "distlock:{persisted}");
        RedisLock waiter = client().getFairLock("persisted");
        ScriptStats.reset(redis.server());

        assertThat(waiter.tryLock(1, 10, TimeUnit.SECONDS)).isFalse();

        assertThat(ScriptStats.scriptCalls(redis.server())).as("scripts run while one waiter waited 1 s")
                .isLessThan(10);
        holder.unlock();
    }

    @Test
    void eventsNameTheFairKind() {
        RecordingListener events = new RecordingListener();
        RedisLock lock = clients.open(redis.server(), b -> b.listener(events)).getFairLock("kind");
        lock.lock();
        lock.lock();
        lock.unlock();
        lock.unlock();
        assertThat(events.acquired).extracting(LockEvent::lockType).containsExactly("fair", "fair");
        assertThat(lock.isLocked()).isFalse();
    }
}

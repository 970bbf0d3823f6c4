package io.distlock.core;

import io.distlock.test.RedisExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.distlock.test.Polling.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(60)
class WaitingTest {

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    @RegisterExtension
    final TestClients clients = new TestClients();

    @Test
    void tryLockHonoursItsWaitTime() throws Exception {
        RedisLock held = clients.open(redis.server()).getLock("wait-time");
        held.lock();
        try {
            RedisLock waiter = clients.open(redis.server()).getLock("wait-time");
            long start = System.nanoTime();
            boolean acquired = waiter.tryLock(500, TimeUnit.MILLISECONDS);
            long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

            assertThat(acquired).isFalse();
            assertThat(elapsedMs).isBetween(450L, 2_000L);
            assertThat(waiter.tryLock()).isFalse();
        } finally {
            held.unlock();
        }
    }

    /**
     * The holder's lease is 30 s (watchdog), so only the release message can wake the waiter in
     * milliseconds: a polling waiter would show its polling interval here.
     */
    @Test
    void waiterWakesWithinMillisecondsOfTheRelease() throws Exception {
        LockClient holderClient = clients.open(redis.server());
        LockClient waiterClient = clients.open(redis.server());
        RedisLock holderLock = holderClient.getLock("hand-off");
        RedisLock waiterLock = waiterClient.getLock("hand-off");
        int rounds = 25;
        long[] latenciesMicros = new long[rounds];
        ExecutorService waiterThread = Executors.newSingleThreadExecutor();
        try {
            for (int round = 0; round < rounds; round++) {
                holderLock.lock();
                ScriptStats.reset(redis.server());
                AtomicReference<Long> acquiredAt = new AtomicReference<>();
                Future<?> waiting = waiterThread.submit(() -> {
                    waiterLock.lock();
                    acquiredAt.set(System.nanoTime());
                    waiterLock.unlock();
                });
                awaitTrue("the waiter tried and listens for the release", Duration.ofSeconds(5),
                        () -> ScriptStats.scriptCalls(redis.server()) >= 1 && waiterClient.activeSubscriptions() == 1);
                long releasedAt = System.nanoTime();
                holderLock.unlock();
                waiting.get(10, TimeUnit.SECONDS);
                latenciesMicros[round] = TimeUnit.NANOSECONDS.toMicros(acquiredAt.get() - releasedAt);
            }
        } finally {
            waiterThread.shutdownNow();
        }
        Arrays.sort(latenciesMicros);
        long median = latenciesMicros[rounds / 2];
        System.out.printf("release-to-acquire hand-off: median %d µs, max %d µs over %d rounds%n",
                median, latenciesMicros[rounds - 1], rounds);
        assertThat(median).as("median hand-off latency in µs, all: %s", Arrays.toString(latenciesMicros))
                .isLessThan(10_000);
    }

    /**
     * A waiter of a lock its client waited on moments ago finds the subscription still there and
     * sleeps right after its first attempt, without subscribing again. The release may come at
     * any moment of that, and must still wake it: the holder's lease is 30 s (watchdog), so a
     * waiter that missed the release would sleep to the end of its wait time, and only then try
     * again. Seeded, so a failing schedule can be replayed.
     */
    @Test
    void aLockWaitedOnAgainSoonReusesItsSubscriptionAndMissesNoRelease() throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        RedisLock holder = clients.open(redis.server()).getLock("waited-again");
        LockClient waiterClient = clients.open(redis.server());
        RedisLock waiter = waiterClient.getLock("waited-again");
        long subscribesBefore = subscribeCalls();
        int rounds = 40;
        ExecutorService waiting = Executors.newSingleThreadExecutor();
        try {
            for (int round = 0; round < rounds; round++) {
                holder.lock();
                Future<Long> waitedMillis = waiting.submit(() -> {
                    long start = System.nanoTime();
                    assertThat(waiter.tryLock(20, TimeUnit.SECONDS)).isTrue();
                    waiter.unlock();
                    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                });
                TimeUnit.MICROSECONDS.sleep(random.nextInt(3_000));  // anywhere in the waiter's first steps
                holder.unlock();
                assertThat(waitedMillis.get(30, TimeUnit.SECONDS)).as("woken by the release: round %d, seed %d",
                        round, seed).isLessThan(5_000);
            }
        } finally {
            waiting.shutdownNow();
        }

        assertThat(subscribeCalls() - subscribesBefore).as("subscriptions for %d waits", rounds)
                .isLessThan(rounds / 2);
        awaitTrue("the subscription ends once nobody waits", Duration.ofSeconds(5),
                () -> waiterClient.activeSubscriptions() == 0);
    }

    /**
     * A subscription Redis refused (here the user may not use the channel) fails the waiter that
     * asked for it, but not the waiters after it: the next one subscribes again, and once Redis
     * allows it, waits and is woken by the release, even within the second a channel nobody waits
     * on lingers.
     */
    @Test
    void aRefusedSubscriptionIsAskedForAgainByTheNextWaiter() throws Exception {
        String user = "no-channels";
        String password = "Channel-Pass-1";
        redis.server().command("ACL", "SETUSER", user, "on", ">" + password, "~*", "+@all", "resetchannels");
        try {
            LockClient waiterClient = clients.open(redis.server(), b -> b.redisUri(
                    "redis://" + user + ":" + password + "@" + redis.server().host() + ":" + redis.server().port()));
            RedisLock holder = clients.open(redis.server()).getLock("refused-channel");
            RedisLock waiter = waiterClient.getLock("refused-channel");
            holder.lock();
            assertThatThrownBy(() -> waiter.tryLock(5, TimeUnit.SECONDS)).isInstanceOf(LockException.class)
                    .hasMessageContaining("NOPERM");

            redis.server().command("ACL", "SETUSER", user, "allchannels");
            CompletableFuture<Boolean> next = LockAttempts.startTryAndRelease(waiter, 10_000);
            awaitTrue("the next waiter subscribed", Duration.ofSeconds(5),
                    () -> next.isDone() || subscribers("distlock:{refused-channel}:ch") == 1);
            holder.unlock();
            assertThat(next.get(10, TimeUnit.SECONDS)).as("woken by the release").isTrue();
        } finally {
            redis.server().command("ACL", "DELUSER", user);
        }
    }

    private static long subscribers(String channel) {
        return (Long) ((List<?>) redis.server().command("PUBSUB", "NUMSUB", channel)).get(1);
    }

    private static long subscribeCalls() {
        Matcher calls = Pattern.compile("cmdstat_subscribe:calls=(\\d+)")
                .matcher(redis.server().commandString("INFO", "commandstats"));
        return calls.find() ? Long.parseLong(calls.group(1)) : 0;
    }

    @Test
    void interruptingAWaiterThrowsAndCleansUp() throws Exception {
        RecordingListener events = new RecordingListener();
        RedisLock held = clients.open(redis.server()).getLock("interrupt");
        LockClient waiterClient = clients.open(redis.server(), b -> b.listener(events));
        RedisLock waiter = waiterClient.getLock("interrupt");
        held.lock();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        Thread thread = new Thread(() -> {
            try {
                waiter.lockInterruptibly();
            } catch (Throwable t) {
                thrown.set(t);
            } finally {
                done.countDown();
            }
        });
        thread.start();
        awaitTrue("the waiter is subscribed", Duration.ofSeconds(5), () -> waiterClient.activeSubscriptions() == 1);

        thread.interrupt();

        assertThat(done.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
        awaitTrue("the subscription is gone", Duration.ofSeconds(5), () -> waiterClient.activeSubscriptions() == 0);
        assertThat(events.failed).singleElement().satisfies(e -> {
            assertThat(e.failure()).isEqualTo(LockEvent.Failure.INTERRUPTED);
            assertThat(e.waited()).isTrue();
        });
        held.unlock();
        assertThat(held.isLocked()).isFalse();
    }

    @Test
    void anAlreadyInterruptedThreadDoesNotTouchTheLock() {
        RedisLock lock = clients.open(redis.server()).getLock("pre-interrupted");
        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(lock::lockInterruptibly).isInstanceOf(InterruptedException.class);
            Thread.currentThread().interrupt();
            assertThatThrownBy(() -> lock.tryLock(1, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
        } finally {
            Thread.interrupted();
        }
        assertThat(lock.isLocked()).isFalse();
    }

    @Test
    void hugeWaitTimesMeanNoLimit() throws Exception {
        RedisLock lock = clients.open(redis.server()).getLock("huge-wait");
        assertThat(lock.tryLock(Long.MAX_VALUE, TimeUnit.MILLISECONDS)).isTrue();
        assertThat(lock.tryLock(Long.MAX_VALUE, 365, TimeUnit.DAYS)).isTrue();
        lock.unlock();
        lock.unlock();
        assertThat(lock.isLocked()).isFalse();
        assertThatThrownBy(() -> lock.tryLock(0, 366, TimeUnit.DAYS))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("leaseTime");
    }

    @Test
    void tryLockWithTimeoutIsInterruptibleToo() throws Exception {
        RedisLock held = clients.open(redis.server()).getLock("interrupt-try");
        LockClient waiterClient = clients.open(redis.server());
        held.lock();
        try {
            CompletableFuture<Throwable> outcome = new CompletableFuture<>();
            Thread thread = new Thread(() -> {
                try {
                    waiterClient.getLock("interrupt-try").tryLock(20, TimeUnit.SECONDS);
                    outcome.complete(null);
                } catch (Throwable t) {
                    outcome.complete(t);
                }
            });
            thread.start();
            awaitTrue("the waiter is subscribed", Duration.ofSeconds(5), () -> waiterClient.activeSubscriptions() == 1);
            thread.interrupt();
            assertThat(outcome.get(5, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
            awaitTrue("the subscription is gone", Duration.ofSeconds(5), () -> waiterClient.activeSubscriptions() == 0);
        } finally {
            held.unlock();
        }
    }

    @Test
    void uninterruptibleLockKeepsWaitingAndKeepsTheInterruptStatus() throws Exception {
        RedisLock held = clients.open(redis.server()).getLock("uninterruptible");
        LockClient waiterClient = clients.open(redis.server());
        held.lock();
        CompletableFuture<Boolean> interruptedAfterLock = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            RedisLock lock = waiterClient.getLock("uninterruptible");
            lock.lock();
            interruptedAfterLock.complete(Thread.currentThread().isInterrupted());
            lock.unlock();
        });
        thread.start();
        awaitTrue("the waiter is subscribed", Duration.ofSeconds(5), () -> waiterClient.activeSubscriptions() == 1);
        thread.interrupt();
        letTimePass(Duration.ofMillis(300));
        assertThat(thread.isAlive()).isTrue();
        assertThat(interruptedAfterLock).isNotDone();

        held.unlock();

        assertThat(interruptedAfterLock.get(5, TimeUnit.SECONDS)).isTrue();
    }

    /**
     * Eight threads of one JVM wait for a lock that another client holds for a while. They must
     * sleep on the subscription, not poll: no lock script runs while the lock stays held, and
     * once it is released each waiter costs about one round trip (its hand-off).
     */
    @Test
    void localWaitersDoNotHammerRedis() throws Exception {
        RedisLock held = clients.open(redis.server()).getLock("crowd");
        LockClient waiterClient = clients.open(redis.server());
        int waiters = 8;
        held.lock();
        ScriptStats.reset(redis.server());
        ExecutorService pool = Executors.newFixedThreadPool(waiters);
        try {
            List<Future<?>> results = new ArrayList<>();
            for (int i = 0; i < waiters; i++) {
                results.add(pool.submit(() -> {
                    RedisLock lock = waiterClient.getLock("crowd");
                    lock.lock();
                    lock.unlock();
                    return null;
                }));
            }
            awaitTrue("every waiter tried once", Duration.ofSeconds(5),
                    () -> ScriptStats.scriptCalls(redis.server()) > waiters);
            letTimePass(Duration.ofMillis(300));
            long callsWhileHeld = ScriptStats.scriptCalls(redis.server());
            letTimePass(Duration.ofMillis(1500));
            assertThat(ScriptStats.scriptCalls(redis.server())).as("lock attempts while the lock stayed held")
                    .isEqualTo(callsWhileHeld);

            held.unlock();
            for (Future<?> result : results) {
                result.get(10, TimeUnit.SECONDS);
            }
            assertThat(ScriptStats.scriptCalls(redis.server()) - callsWhileHeld)
                    .as("script calls to pass the lock through %d waiters", waiters)
                    .isLessThanOrEqualTo(2L * waiters + 2);
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * A thread releasing its last hold while another thread of the same client sleeps on the lock
     * hands it over in one script call, without freeing it: nothing is published.
     */
    @Test
    void aReleaseHandsTheLockToASleepingThreadOfTheSameClient() throws Exception {
        RecordingListener events = new RecordingListener();
        LockClient client = clients.open(redis.server(), b -> b.listener(events));
        RedisLock lock = client.getLock("hand-over");
        lock.lock();
        CompletableFuture<Long> receivedAt = new CompletableFuture<>();
        CountDownLatch mayRelease = new CountDownLatch(1);
        Thread receiver = new Thread(() -> {
            lock.lock();
            receivedAt.complete(System.nanoTime());
            try {
                mayRelease.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            lock.unlock();
        });
        receiver.start();
        awaitTrue("the receiver waits", Duration.ofSeconds(5), () -> events.waiting.size() == 1);
        letTimePass(Duration.ofMillis(200));
        ScriptStats.reset(redis.server());

        lock.unlock();

        receivedAt.get(5, TimeUnit.SECONDS);
        String stats = redis.server().commandString("INFO", "commandstats");
        assertThat(ScriptStats.scriptCalls(redis.server())).as("script calls for the hand-over; %s", stats).isEqualTo(1);
        assertThat(stats).doesNotContain("cmdstat_publish");
        assertThat(lock.isLocked()).isTrue();
        assertThat(events.acquired).last().satisfies(e -> {
            assertThat(e.waited()).isTrue();
            assertThat(e.holderId()).isNotEqualTo(events.acquired.get(0).holderId());
        });
        mayRelease.countDown();
        receiver.join(5_000);
        assertThat(lock.isLocked()).isFalse();
    }

    private void letTimePass(Duration quiet) {
        long until = System.nanoTime() + quiet.toNanos();
        awaitTrue(quiet.toMillis() + " ms passed", quiet.multipliedBy(3), () -> System.nanoTime() > until);
    }

    @Test
    void closingTheClientEndsItsWaitersWithAnException() throws Exception {
        RedisLock held = clients.open(redis.server()).getLock("closing");
        LockClient waiterClient = LockClient.builder().redisUri(redis.server().uri()).build();
        held.lock();
        try {
            CompletableFuture<Throwable> outcome = CompletableFuture.supplyAsync(() -> {
                try {
                    waiterClient.getLock("closing").lock();
                    return null;
                } catch (Throwable t) {
                    return t;
                }
            });
            awaitTrue("the waiter is subscribed", Duration.ofSeconds(5), () -> waiterClient.activeSubscriptions() == 1);

            waiterClient.close();

            assertThat(outcome.get(10, TimeUnit.SECONDS)).isInstanceOf(LockException.class);
        } finally {
            held.unlock();
        }
    }

}

package io.distlock.core;

import io.distlock.test.RedisExtension;
import io.distlock.test.RedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static io.distlock.test.Polling.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/** Redlock over three independent redis-server processes, with masters stopped on purpose. */
@Timeout(60)
class RedLockTest {

    @RegisterExtension
    static RedisExtension redis = RedisExtension.nodes(3);

    @RegisterExtension
    final TestClients clients = new TestClients();

    private RedLock redLock(String name) {
        return new RedLock(redis.servers().stream().map(server -> clients.open(server).getLock(name))
                .toArray(RedisLock[]::new));
    }

    /**
     * Waits until an attempt fails at once, for want of a majority of connected masters, and checks
     * that the grant of the one master that answered was given back. The failure and its reason are
     * one step: a refusal counts only for a while, so a separate attempt later could come too late.
     */
    private static void failsAtOnceForWantOfAMajority(RedLock lock, String name) {
        awaitTrue("an attempt fails at once: 2 of 3 masters are not connected", Duration.ofSeconds(30), () -> {
            long start = System.nanoTime();
            try {
                lock.tryLock(10, 10, TimeUnit.SECONDS);
                return false;
            } catch (LockException | InterruptedException e) {
                return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) < 3_000
                        && String.valueOf(e.getMessage()).contains("2 of 3 masters are not connected");
            }
        });
        assertThat(keysOn(redis.server(0), name)).as("the one grant was given back").isZero();
    }

    private static long keysOn(RedisServer server, String name) {
        return Long.parseLong(server.commandString("EXISTS", "distlock:{" + name + "}"));
    }

    @Test
    void aMajorityGrantsItAndEveryMasterIsReleased() throws Exception {
        RedLock lock = redLock("job");
        assertThat(lock.quorum()).isEqualTo(2);
        assertThat(lock.tryLock(2, 10, TimeUnit.SECONDS)).isTrue();
        assertThat(redis.servers()).allSatisfy(server -> assertThat(keysOn(server, "job")).isEqualTo(1));
        assertThat(lock.isHeldByCurrentThread()).isTrue();
        assertThat(lock.remainingTimeToLive()).isBetween(1L, 10_000L);

        RedLock rival = redLock("job");
        assertThat(CompletableFuture.supplyAsync(() -> {
            try {
                return rival.tryLock(300, 10_000, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }).get(10, TimeUnit.SECONDS)).as("a rival in other clients is refused").isFalse();

        lock.unlock();
        assertThat(redis.servers()).allSatisfy(server -> assertThat(keysOn(server, "job")).isZero());
        assertThatThrownBy(lock::unlock).isInstanceOf(IllegalMonitorStateException.class);
    }

    @Test
    void mastersNotConnectedYetFailTheAttemptAtOnceUntilAMajorityConnects() throws Exception {
        redis.server(1).stop();
        redis.server(2).stop();
        List<LockClient> lateClients = redis.servers().stream()
                .map(server -> clients.open(server, b -> b.startWithoutRedis(true))).toList();
        RedLock lock = new RedLock(lateClients.stream().map(client -> client.getLock("late"))
                .toArray(RedisLock[]::new));

        failsAtOnceForWantOfAMajority(lock, "late");

        redis.server(1).start();
        ConnectionProbes.awaitConnected(lateClients.get(1));
        assertThat(lock.tryLock(10, 10, TimeUnit.SECONDS)).isTrue();
        lock.unlock();
    }

    @Test
    void oneMasterDownStillLeavesAMajority() throws Exception {
        RedLock lock = redLock("minority-down");
        redis.server(2).stop();
        long start = System.nanoTime();
        assertThat(lock.tryLock(3, 10, TimeUnit.SECONDS)).isTrue();
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(3_000);
        assertThat(keysOn(redis.server(0), "minority-down") + keysOn(redis.server(1), "minority-down")).isEqualTo(2);
        lock.unlock();
        assertThat(keysOn(redis.server(0), "minority-down")).isZero();
    }

    @Test
    void twoMastersPausedFailsWithinTheWaitTimeAndLeavesNothingBehind() throws Exception {
        RedLock lock = redLock("majority-paused");
        redis.server(1).pause();
        redis.server(2).pause();
        long start = System.nanoTime();
        assertThat(lock.tryLock(1, 10, TimeUnit.SECONDS)).isFalse();
        long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertThat(elapsed).as("the wait time (1 s) plus one attempt timeout (<= 1 s)").isBetween(900L, 2_500L);
        assertThat(keysOn(redis.server(0), "majority-paused")).as("the one grant was given back").isZero();
        assertThat(lock.isHeldByCurrentThread()).isFalse();
    }

    @Test
    void twoMastersStoppedFailAtOnceOnceTheirClientsKnowAndLeaveNothingBehind() {
        List<LockClient> masters = redis.servers().stream().map(clients::open).toList();
        RedLock lock = new RedLock(masters.stream().map(client -> client.getLock("majority-down"))
                .toArray(RedisLock[]::new));
        redis.server(1).stop();
        redis.server(2).stop();

        failsAtOnceForWantOfAMajority(lock, "majority-down");
        assertThat(lock.isHeldByCurrentThread()).isFalse();
    }

    /** The holder is told once fewer than a majority of the masters still have its lease, not before. */
    @Test
    void theLossSignalComesWhenTheMajorityIsLost() throws Exception {
        RecordingListener firstMaster = new RecordingListener();
        List<LockClient> masters = redis.servers().stream().map(server -> clients.open(server,
                b -> b.watchdogTimeout(Duration.ofSeconds(1)).listener(server == redis.server(0) ? firstMaster
                        : new RecordingListener()))).toList();
        RedLock lock = new RedLock(masters.stream().map(client -> client.getLock("majority-lost"))
                .toArray(RedisLock[]::new));
        lock.lock();
        CompletableFuture<LockLostException> signal = lock.whenLost().toCompletableFuture();

        redis.server(0).command("DEL", "distlock:{majority-lost}");
        awaitTrue("master 0's client found its lease lost", Duration.ofSeconds(10), () -> !firstMaster.lost.isEmpty());
        assertThat(lock.confirmHeld(Duration.ZERO)).as("a majority still holds it").isTrue();
        assertThat(signal).as("one master lost: the majority still holds").isNotDone();

        redis.server(1).command("DEL", "distlock:{majority-lost}");
        assertThat(signal.get(20, TimeUnit.SECONDS)).hasMessageContaining("redlock[majority-lost x3]");
        assertThat(lock.confirmHeld(Duration.ZERO)).isFalse();
    }

    @Test
    void asyncHoldersAndReEntry() throws Exception {
        RedLock lock = redLock("async");
        assertThat(lock.tryLockAsync(1, 5, TimeUnit.SECONDS, "job-1").get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(lock.tryLockAsync(1, 5, TimeUnit.SECONDS, "job-1").get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(lock.tryLockAsync(0, 5, TimeUnit.SECONDS, "job-2").get(10, TimeUnit.SECONDS)).isFalse();
        lock.unlockAsync("job-1").get(10, TimeUnit.SECONDS);
        assertThat(lock.isHeldBy("job-1")).as("re-entered once, released once").isTrue();
        lock.unlockAsync("job-1").get(10, TimeUnit.SECONDS);
        assertThat(redis.servers()).allSatisfy(server -> assertThat(keysOn(server, "async")).isZero());
    }

    /**
     * The outer hold was granted by masters 0 and 1, the re-entry by 1 and 2: releasing the
     * re-entry must not free master 0, which only the outer hold has.
     */
    @Test
    void releasingAReEntryGrantedByOtherMastersKeepsTheOuterHold() throws Exception {
        RedLock lock = redLock("nested");
        // Paused, not stopped: a restarted master without persistence would forget its grant.
        redis.server(2).pause();
        assertThat(lock.tryLock(3, 10, TimeUnit.SECONDS)).isTrue();
        redis.server(2).resume();
        redis.server(0).pause();
        assertThat(lock.tryLock(3, 10, TimeUnit.SECONDS)).as("re-entry on masters 1 and 2").isTrue();
        redis.server(0).resume();

        lock.unlock();
        assertThat(keysOn(redis.server(0), "nested")).as("the outer hold keeps master 0").isEqualTo(1);
        assertThat(lock.isHeldByCurrentThread()).isTrue();
        lock.unlock();
        assertThat(redis.servers()).allSatisfy(server -> assertThat(keysOn(server, "nested")).isZero());
    }

    /**
     * The outer hold granted by masters 0 and 1, a re-entry by 1 and 2, released again: once
     * master 0 loses its lease, the outer hold has a minority left, which the signal must tell,
     * although two of the three masters that granted some hold are still fine.
     */
    @Test
    void aReEntryGrantedByOtherMastersDoesNotHideTheOuterHoldsLoss() throws Exception {
        RedLock lock = new RedLock(redis.servers().stream().map(server -> clients.open(server,
                b -> b.watchdogTimeout(Duration.ofSeconds(3))).getLock("nested-loss")).toArray(RedisLock[]::new));
        redis.server(2).pause();
        try {
            assertThat(lock.tryLock(3, TimeUnit.SECONDS)).isTrue();
        } finally {
            redis.server(2).resume();
        }
        redis.server(0).pause();
        try {
            assertThat(lock.tryLock(3, TimeUnit.SECONDS)).as("re-entry on masters 1 and 2").isTrue();
        } finally {
            redis.server(0).resume();
        }
        CompletableFuture<LockLostException> signal = lock.whenLost().toCompletableFuture();
        lock.unlock();

        redis.server(0).command("DEL", "distlock:{nested-loss}");
        assertThat(signal.get(20, TimeUnit.SECONDS)).hasMessageContaining("redlock[nested-loss x3]");
    }

    /**
     * Two masters hold writes back for a while: the rounds that time out on them ask them again
     * with the same holder id, so each of them runs several attempts of one holder in a row once
     * it answers again. Cleaning up the abandoned ones must leave the hold of the round that won.
     */
    @Test
    void attemptsAbandonedOnAStalledMasterLeaveTheWinningRoundsHold() throws Exception {
        for (int round = 0; round < 5; round++) {
            RedLock lock = new RedLock(Duration.ofMillis(50), redis.servers().stream()
                    .map(server -> clients.open(server).getLock("stalled")).toList());
            redis.server(0).command("CLIENT", "PAUSE", "400", "WRITE");
            redis.server(1).command("CLIENT", "PAUSE", "400", "WRITE");

            assertThat(lock.tryLock(5, 10, TimeUnit.SECONDS)).isTrue();

            // Asked through the lock's own connections, so after every cleanup already sent.
            assertThat(lock.isHeldByCurrentThread()).as("round " + round + ": a majority still holds it").isTrue();
            lock.unlock();
            assertThat(redis.servers()).allSatisfy(server -> assertThat(keysOn(server, "stalled")).isZero());
        }
    }

    /**
     * lock() returns with the thread's interrupt status kept, so the unlock() that follows starts
     * interrupted. It must still wait for the masters' answers: a caller told at once "interrupted
     * while releasing" while the release went on retried a hold already taken out for it, and was
     * refused as not holding the lock. Master 2 is paused so the release cannot be answered before
     * unlock() looks at the interrupt.
     */
    @Test
    void anUnlockCalledWithTheInterruptStatusSetReleasesAndKeepsTheStatus() throws Exception {
        RecordingListener events = new RecordingListener();
        RedLock lock = new RedLock(redis.servers().stream()
                .map(server -> clients.open(server, b -> b.listener(events)).getLock("interrupted-release"))
                .toArray(RedisLock[]::new));
        lock.lock(30, TimeUnit.SECONDS);

        redis.server(2).pause();
        ScheduledExecutorService resumer = Executors.newSingleThreadScheduledExecutor();
        Throwable first;
        Throwable retry = null;
        boolean stillInterrupted;
        try {
            resumer.schedule(() -> redis.server(2).resume(), 500, TimeUnit.MILLISECONDS);
            Thread.currentThread().interrupt();
            first = catchThrowable(lock::unlock);
            stillInterrupted = Thread.interrupted();
            if (first instanceof LockException) {
                retry = catchThrowable(lock::unlock);  // what a caller told "no answer" does
            }
        } finally {
            Thread.interrupted();
            resumer.shutdown();
            assertThat(resumer.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            redis.server(2).resume();
        }

        assertThat(retry).as("a retry is never refused as not held").isNull();
        assertThat(first).as("the release waited for the masters despite the interrupt").isNull();
        assertThat(stillInterrupted).as("the interrupt status is kept").isTrue();
        assertThat(redis.servers()).allSatisfy(server -> assertThat(keysOn(server, "interrupted-release")).isZero());
        assertThat(events.lost).isEmpty();
        assertThat(events.released).as("one release per master").hasSize(3);
    }

    /**
     * A master answers the release after RedLock's old wait limit (11 s) but within its own
     * client's command timeout: unlock() used to give up on its own clock and say "no answer"
     * while the master's release was still in flight, and the retry was refused as not held
     * (RedLock had taken the hold out of its books), though the release then succeeded. Now the
     * one decision is the master's own.
     */
    @Test
    void anUnlockAnsweredLateByAMasterReleasesOnceAndIsNeverRefused() throws Exception {
        RecordingListener events = new RecordingListener();
        List<RedisServer> servers = redis.servers();
        RedLock lock = new RedLock(servers.stream().map(server -> clients.open(server, b -> b.listener(events)
                        .commandTimeout(Duration.ofSeconds(30))).getLock("late-release"))
                .toArray(RedisLock[]::new));
        lock.lock(60, TimeUnit.SECONDS);

        redis.server(2).pause();
        ScheduledExecutorService resumer = Executors.newSingleThreadScheduledExecutor();
        Throwable first;
        Throwable retry = null;
        try {
            resumer.schedule(() -> redis.server(2).resume(), 12, TimeUnit.SECONDS);
            first = catchThrowable(lock::unlock);
            if (first instanceof LockException) {
                retry = catchThrowable(lock::unlock);  // "no answer": calling unlock again was said to be safe
            }
        } finally {
            resumer.shutdown();
            assertThat(resumer.awaitTermination(20, TimeUnit.SECONDS)).isTrue();
            redis.server(2).resume();
        }

        assertThat(retry).as("a retry is never refused as not held").isNull();
        assertThat(first).as("unlock() waited for the paused master's answer").isNull();
        assertThat(servers).allSatisfy(server -> assertThat(keysOn(server, "late-release")).isZero());
        assertThat(events.lost).isEmpty();
        assertThat(events.released).as("released once per master").hasSize(3);
    }

    /**
     * A MultiLock over a RedLock and a single lock. Two of the three masters do not answer the
     * RedLock's release (each master's release was already sent twice, within its command limit),
     * so the RedLock fails with LockException, its hold already out of its books. The MultiLock
     * used to release it once more and got IllegalMonitorStateException ("not held") instead of
     * that LockException; a composite decides for its components and is not retried.
     */
    @Test
    void aMultiLockOverARedLockReportsTheRedLocksUnconfirmedReleaseAndReleasesNothingTwice() throws Exception {
        RecordingListener masterEvents = new RecordingListener();
        RedLock redLock = new RedLock(redis.servers().stream().map(server -> clients.open(server, b -> b
                        .listener(masterEvents).commandTimeout(Duration.ofMillis(300))).getLock("red-in-multi"))
                .toArray(RedisLock[]::new));
        RecordingListener singleEvents = new RecordingListener();
        RedisLock single = clients.open(redis.server(0), b -> b.listener(singleEvents)).getLock("single-in-multi");
        MultiLock both = new MultiLock(redLock, single);
        both.lock(30, TimeUnit.SECONDS);

        redis.server(1).pause();
        redis.server(2).pause();
        Throwable failure;
        try {
            failure = catchThrowable(both::unlock);
        } finally {
            redis.server(1).resume();
            redis.server(2).resume();
        }

        assertThat(failure).as("the RedLock's own decision, not a refused retry")
                .isExactlyInstanceOf(LockException.class).hasMessageContaining("1 of 3 masters confirmed");
        assertThat(single.isLocked()).isFalse();
        assertThat(singleEvents.released).as("the single lock released once").hasSize(1);
        assertThat(keysOn(redis.server(0), "red-in-multi")).isZero();
        // The releases the paused masters were sent run once they answer again, counted once each.
        awaitTrue("the paused masters ran the releases sent to them", Duration.ofSeconds(10),
                () -> keysOn(redis.server(1), "red-in-multi") == 0 && keysOn(redis.server(2), "red-in-multi") == 0);
        assertThat(masterEvents.lost).isEmpty();
        assertThat(singleEvents.lost).isEmpty();
        assertThatThrownBy(both::unlock).as("nothing left to release")
                .isExactlyInstanceOf(IllegalMonitorStateException.class);
        assertThat(singleEvents.released).hasSize(1);
    }

    @Test
    void badArguments() {
        assertThatThrownBy(() -> new RedLock(null, List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RedLock(java.time.Duration.ZERO, List.of(clients.open(redis.server()).getLock("x"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("attemptTimeout");
    }

    @Test
    void aLeaseNoLongerThanTheClockDriftAllowanceIsRefusedNotTriedForever() {
        RedLock lock = redLock("too-short");
        // 2 ms: a lease that can never be valid (it must outlast 2 ms + 1%). It was tried round after round.
        assertThatThrownBy(() -> lock.tryLock(0, 2, TimeUnit.MILLISECONDS))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("clock drift allowance of 2 ms");
        assertThatThrownBy(() -> lock.lock(500, TimeUnit.MICROSECONDS))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> lock.tryLockAsync(0, 1, TimeUnit.MILLISECONDS, "holder"))
                .isInstanceOf(IllegalArgumentException.class);
        redis.servers().forEach(server -> assertThat(keysOn(server, "too-short")).isZero());
    }
}

package io.distlock.core;

import io.distlock.test.RedisExtension;
import io.distlock.test.RedisServer;
import io.distlock.test.RedisServerOptions;
import io.distlock.test.RedisServers;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.TimeoutOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.distlock.core.LockAttempts.tryAndReleaseElsewhere;
import static io.distlock.test.Polling.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

@Timeout(90)
class RedisOutageTest {

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    @RegisterExtension
    final TestClients clients = new TestClients();

    @Test
    void redisStoppedGivesErrorsNotHangsAndTheClientRecoversAfterRestart() throws Exception {
        LockClient client = clients.open(redis.server(), b -> b.commandTimeout(Duration.ofSeconds(1)));
        RedisLock lock = client.getLock("outage");
        lock.lock();
        lock.unlock();

        redis.server().stop();

        long start = System.nanoTime();
        assertThatThrownBy(() -> lock.tryLock(5, TimeUnit.SECONDS))
                .isInstanceOf(LockException.class)
                .hasMessageContaining("outage");
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(4_000);
        assertThatThrownBy(lock::lock).isInstanceOf(LockException.class);
        assertThatThrownBy(lock::isLocked).isInstanceOf(LockException.class);

        redis.server().start();

        awaitTrue("the client reconnected and acquires again", Duration.ofSeconds(30), () -> {
            try {
                return lock.tryLock(100, TimeUnit.MILLISECONDS);
            } catch (LockException | InterruptedException e) {
                return false;
            }
        });
        assertThat(lock.isHeldByCurrentThread()).isTrue();
        lock.unlock();
        assertThat(lock.isLocked()).isFalse();
    }

    /**
     * A stopped Redis refuses the reconnects: once Lettuce has failed one, lock calls fail at once
     * and say the connection was refused, instead of waiting out the command timeout.
     */
    @Test
    void aRefusedReconnectFailsCallsAtOnceAndSaysSo() throws Exception {
        LockClient client = clients.open(redis.server(), b -> b.commandTimeout(Duration.ofSeconds(5)));
        RedisLock lock = client.getLock("refused");
        RedisLock held = client.getLock("held");
        assertThat(held.tryLock(10, 60, TimeUnit.SECONDS)).isTrue();

        redis.server().stop();
        // One step: the failure that says so must itself come at once, without the command timeout.
        awaitTrue("an acquisition fails at once, saying Redis refused the connection", Duration.ofSeconds(30), () -> {
            long start = System.nanoTime();
            try {
                lock.tryLock(5, TimeUnit.SECONDS);
                return false;
            } catch (LockException | InterruptedException e) {
                return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) < 1_000
                        && String.valueOf(e.getMessage()).contains("Could not acquire lock 'refused'")
                        && e.getMessage().contains("Redis refused the connection");
            }
        });
        assertThatThrownBy(held::unlock).isInstanceOf(LockException.class)
                .hasMessageContaining("Could not release lock 'held'")
                .hasMessageContaining("The release was not sent");
        assertThat(client.locks()).as("nothing waits; the lock whose release was not sent is still held")
                .extracting(LockInfo::name).containsExactly("held");

        redis.server().start();
        ConnectionProbes.awaitConnected(client);
        assertThat(lock.tryLock(5, TimeUnit.SECONDS)).isTrue();
        lock.unlock();
        assertThat(redis.server().command("EXISTS", "distlock:{refused}")).isEqualTo(0L);
    }

    /**
     * The release reaches a paused Redis: the caller times out, Redis applies it later. A retry
     * must neither throw nor release a second hold.
     */
    @Test
    void anUnconfirmedUnlockCanBeRetriedSafely() {
        LockClient client = clients.open(redis.server(), b -> b.commandTimeout(Duration.ofMillis(500)));
        RedisLock lock = client.getLock("retry");
        lock.lock();
        lock.lock();

        redis.server().pause();
        try {
            assertThatThrownBy(lock::unlock)
                    .isInstanceOf(LockException.class)
                    .hasMessageContaining("safe");
        } finally {
            redis.server().resume();
        }

        awaitTrue("the client is usable again", Duration.ofSeconds(10), () -> {
            try {
                lock.unlock();
                return true;
            } catch (LockException e) {
                return false;
            }
        });
        assertThat(lock.getHoldCount()).as("the retried release did not release twice").isEqualTo(1);
        lock.unlock();
        assertThat(lock.isLocked()).isFalse();
    }

    /**
     * The caller stops waiting for a release before its answer is read: a JVM frozen past the
     * command limit (a stop-the-world pause, a suspended VM) wakes with every deadline passed, the
     * waiting caller's first, and reads the answer that came meanwhile only after; a Lettuce client
     * whose own timeout is longer than the command limit does the same without a freeze, here with
     * Redis paused past the limit. The caller is told that Redis did not confirm the release and
     * that calling unlock() again is safe: the retry must end the hold once, not be refused as not
     * held while the release it retries goes on to end it (the randomized checker's
     * {@code RELEASE_REFUSED}, seed 3645729395628545936: a write lock's holder frozen 3.65 s in its
     * unlock()).
     */
    @Test
    void anUnlockRetriedAfterItsCallerStoppedWaitingForTheAnswerReleasesTheHold() {
        RecordingListener events = new RecordingListener();
        RedisClient patient = RedisClient.create(redis.server().uri());
        patient.setOptions(ClientOptions.builder().timeoutOptions(TimeoutOptions.enabled(Duration.ofSeconds(30)))
                .build());
        try (LockClient client = LockClient.builder().redisClient(patient).commandTimeout(Duration.ofMillis(500))
                .listener(events).build()) {
            RedisLock lock = client.getReadWriteLock("frozen-release").writeLock();
            lock.lock(30, TimeUnit.SECONDS);
            lock.unlock();  // the scripts are loaded now: the release below is one call
            lock.lock(30, TimeUnit.SECONDS);

            LockException unanswered;
            redis.server().pause();
            try {
                unanswered = catchThrowableOfType(LockException.class, lock::unlock);
            } finally {
                redis.server().resume();
            }
            // Behind the release on the client's one connection: answered once the release was.
            awaitTrue("the release ran once Redis resumed", Duration.ofSeconds(10), () -> !lock.isLocked());

            lock.unlock();

            assertThat(unanswered).as("the caller was told no answer came").isNotNull()
                    .hasMessageContaining("safe");
            assertThat(events.lost).as("our own release, not a lost lease").isEmpty();
            assertThat(events.released).as("the warm-up's release, then this one").hasSize(2)
                    .allSatisfy(e -> assertThat(e.holdCount()).isZero());
            assertThat(lock.isLocked()).isFalse();
        } finally {
            patient.shutdown();
        }
    }

    /**
     * The connection drops after Redis ran the release but before its answer arrived: Lettuce
     * (at-least-once by default) sends the release again after reconnecting, and that second run
     * finds nothing held. That is our own release, not a lost lease.
     */
    @Test
    void aReleaseLettuceSendsAgainAfterAReconnectIsNotALostLease() {
        RecordingListener events = new RecordingListener();
        try (ReplyDroppingProxy proxy = new ReplyDroppingProxy(redis.server().host(), redis.server().port());
             LockClient client = LockClient.builder().redisUri(proxy.uri()).commandTimeout(Duration.ofSeconds(5))
                     .listener(events).build()) {
            RedisLock lock = client.getLock("replayed-release");
            lock.lock(30, TimeUnit.SECONDS);
            lock.unlock();  // the scripts are loaded now: the answer to drop is the release's own
            lock.lock(30, TimeUnit.SECONDS);  // an explicit lease: no renewals on the connection

            proxy.dropNextReplyAndDisconnect();
            lock.unlock();

            assertThat(proxy.dropped()).as("the first answer was lost").isTrue();
            assertThat(events.lost).isEmpty();
            assertThat(events.released).hasSize(2).allSatisfy(e -> assertThat(e.holdCount()).isZero());
            assertThat(lock.isLocked()).isFalse();
        }
    }

    /**
     * A force-unlock whose answer was lost with its connection: Lettuce sends it again after
     * reconnecting, by then another holder has taken the free lock, and the second run must not
     * delete that holder's lock. Every kind of lock.
     */
    @Test
    void aForceUnlockLettuceSendsAgainLeavesTheNextHolderAlone() throws Exception {
        LockClient first = clients.open(redis.server());
        LockClient next = clients.open(redis.server());
        try (ReplyDroppingProxy proxy = new ReplyDroppingProxy(redis.server().host(), redis.server().port());
             LockClient admin = LockClient.builder().redisUri(proxy.uri()).commandTimeout(Duration.ofSeconds(30))
                     .build()) {
            for (int kind = 0; kind < LockKinds.every(first, "-").length; kind++) {
                String name = "forced-" + kind;
                RedisLock forced = LockKinds.every(admin, name)[kind];
                RedisLock nextHolder = LockKinds.every(next, name)[kind];
                assertThat(forced.forceUnlock()).as("nothing to delete yet; the script is loaded now").isFalse();
                LockKinds.every(first, name)[kind].lock();

                proxy.holdNewConnections();  // the reconnect, and so the command sent again, waits
                proxy.dropNextReplyAndDisconnect();
                CompletableFuture<Boolean> forcing = CompletableFuture.supplyAsync(forced::forceUnlock);
                awaitTrue(forced + ": the first run deleted the lock", Duration.ofSeconds(10),
                        () -> redis.server().commandString("EXISTS", "distlock:{" + name + "}").equals("0"));
                assertThat(nextHolder.tryLock(0, 60, TimeUnit.SECONDS)).as(forced + ": the next holder").isTrue();
                proxy.passNewConnections();

                // The first answer was lost: this one is the second run's.
                assertThat(forcing.get(60, TimeUnit.SECONDS)).as(forced + ": answered as the first run").isTrue();
                assertThat(proxy.dropped()).as("the first answer was lost").isTrue();
                assertThat(nextHolder.isHeldByCurrentThread()).as(forced + ": the run sent again left the next holder")
                        .isTrue();
                nextHolder.unlock();
            }
        }
    }

    /**
     * A last release that ran in Redis but whose answer never came: the lock is free, and another
     * thread of the client must find that out from Redis, even while the client still listens on
     * the lock's channel (a wait on it ended under a second ago). It used to take the unconfirmed
     * hold for a local holder and sleep for a wake-up that had already gone out.
     */
    @Test
    void aThreadOfTheClientTakesALockWhoseUnconfirmedReleaseRan() throws Exception {
        LockClient client = clients.open(redis.server(), b -> b.commandTimeout(Duration.ofMillis(200))
                .watchdogTimeout(Duration.ofSeconds(20)));
        RedisLock lock = client.getLock("released-unconfirmed");
        lock.lock();
        lock.unlock();  // the scripts are loaded now: the release below runs once Redis goes on
        lock.lock();
        assertThat(tryAndReleaseElsewhere(lock, 300))
                .as("a wait while the lock is held: the channel stays subscribed a while").isFalse();

        redis.server().command("CLIENT", "PAUSE", "300", "WRITE");
        assertThatThrownBy(lock::unlock).isInstanceOf(LockException.class);
        awaitTrue("the release ran", Duration.ofSeconds(5),
                () -> redis.server().commandString("EXISTS", "distlock:{released-unconfirmed}").equals("0"));

        anotherThreadTakesTheFreeLockAtOnce(lock);
    }

    /**
     * The same for a last release that hands the lock to a waiting thread and gets no answer: the
     * hand-off and the waiter's undo run once Redis goes on, the lock is free, and the next thread
     * must ask Redis rather than wait for the releasing hold.
     */
    @Test
    void aThreadOfTheClientTakesALockWhoseUnansweredHandOffRan() throws Exception {
        LockClient client = clients.open(redis.server(), b -> b.commandTimeout(Duration.ofMillis(300))
                .watchdogTimeout(Duration.ofSeconds(20)));
        RedisLock lock = client.getLock("handed-unanswered");
        handOffOnce(lock);  // the scripts are loaded now: the commands below run once Redis goes on
        lock.lock();
        CompletableFuture<Boolean> waiter = waitingThread(lock);

        redis.server().command("CLIENT", "PAUSE", "600", "WRITE");
        assertThatThrownBy(lock::unlock).isInstanceOf(LockException.class);
        assertThatThrownBy(() -> waiter.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(LockException.class);
        awaitTrue("the hand-off and the waiter's undo ran", Duration.ofSeconds(5),
                () -> redis.server().commandString("EXISTS", "distlock:{handed-unanswered}").equals("0"));

        anotherThreadTakesTheFreeLockAtOnce(lock);
    }

    /** Another thread of the client asks Redis for the free lock, rather than waiting for a wake-up. */
    private static void anotherThreadTakesTheFreeLockAtOnce(RedisLock lock) throws Exception {
        long start = System.nanoTime();
        assertThat(tryAndReleaseElsewhere(lock, 3_000)).as("another thread takes the free lock").isTrue();
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(2_000);
    }

    /** The test thread holds the lock and hands it to a waiting thread by its release. */
    private void handOffOnce(RedisLock lock) throws Exception {
        lock.lock();
        CompletableFuture<Boolean> waiter = waitingThread(lock);
        lock.unlock();
        assertThat(waiter.get(10, TimeUnit.SECONDS)).isTrue();
    }

    /** @return another thread's tryLock of the lock the test thread holds, once it tried and sleeps */
    private CompletableFuture<Boolean> waitingThread(RedisLock lock) {
        ScriptStats.reset(redis.server());
        CompletableFuture<Boolean> waiter = LockAttempts.startTryAndRelease(lock, 10_000);
        awaitTrue("the waiter tried once, and sleeps", Duration.ofSeconds(10),
                () -> ScriptStats.scriptCalls(redis.server()) >= 1);
        return waiter;
    }

    /**
     * A last release Redis never confirmed, and nobody retried, still ends with a released event
     * (metrics would count the lock as held forever otherwise).
     */
    @Test
    void anUnconfirmedLastReleaseNobodyRetriesIsReportedReleased() {
        RecordingListener events = new RecordingListener();
        LockClient client = clients.open(redis.server(), b -> b.commandTimeout(Duration.ofMillis(500))
                .watchdogTimeout(Duration.ofSeconds(2)).listener(events));
        RedisLock lock = client.getLock("unconfirmed");
        lock.lock();
        redis.server().pause();
        try {
            assertThatThrownBy(lock::unlock).isInstanceOf(LockException.class);
        } finally {
            redis.server().resume();
        }
        awaitTrue("the hold is reported released", Duration.ofSeconds(20), () -> !events.released.isEmpty());
        assertThat(events.released).singleElement().satisfies(e -> assertThat(e.holdCount()).isZero());
        assertThat(events.lost).isEmpty();
        assertThat(client.watchdogHoldCount()).isZero();
    }

    /**
     * Redis runs the lock script after the caller gave up on it (paused clients): the attempt is
     * undone, nobody is locked out for a lease, and trying again gives an ordinary first hold.
     */
    @Test
    void anAttemptThatTimedOutLeavesNothingBehind() throws Exception {
        LockClient client = clients.open(redis.server(), b -> b.commandTimeout(Duration.ofMillis(300)));
        RedisLock lock = client.getLock("late-attempt");

        redis.server().command("CLIENT", "PAUSE", "1000");
        assertThatThrownBy(lock::lock).isInstanceOf(LockException.class);

        RedisLock other = clients.open(redis.server()).getLock("late-attempt");
        assertThat(other.tryLock(5, TimeUnit.SECONDS)).as("the late attempt was undone").isTrue();
        other.unlock();

        lock.lock();
        assertThat(lock.getHoldCount()).isEqualTo(1);
        lock.unlock();
        assertThat(lock.isLocked()).isFalse();
        assertThat(client.watchdogHoldCount()).isZero();
    }

    /**
     * Attempts whose answers were lost, and whose undos could not be sent (see
     * {@link #loseAttemptsAndTheirUndos}), are still undone once Redis is reachable again, long
     * before their 60 s leases end.
     */
    @Test
    void attemptsLostWithTheirConnectionAreUndoneOnceRedisIsReachableAgain() throws Exception {
        try (ReplyDroppingProxy proxy = new ReplyDroppingProxy(redis.server().host(), redis.server().port());
             LockClient client = LockClient.builder().redisUri(proxy.uri()).commandTimeout(LOST_ATTEMPT_TIMEOUT)
                     .build()) {
            loseAttemptsAndTheirUndos(proxy, client);
            awaitTrue("both attempts were undone", Duration.ofSeconds(10),
                    () -> existing(LOST_KEYS) == 0L);
        }
    }

    /**
     * The holder acquires each lock again right after the client reconnected, while the undos of
     * its lost attempts still wait for their next try: they are sent first, so each acquisition is
     * a first hold of its own, never joined to the hold being taken back, and its one unlock frees
     * the lock.
     */
    @Test
    void theHoldersNextAcquisitionDoesNotJoinTheHoldBeingUndone() throws Exception {
        try (ReplyDroppingProxy proxy = new ReplyDroppingProxy(redis.server().host(), redis.server().port());
             LockClient client = LockClient.builder().redisUri(proxy.uri()).commandTimeout(LOST_ATTEMPT_TIMEOUT)
                     .build()) {
            List<RedisLock> locks = loseAttemptsAndTheirUndos(proxy, client);
            for (RedisLock lock : locks) {
                assertThat(lock.tryLockAsync(0, 60, TimeUnit.SECONDS, "job").get(10, TimeUnit.SECONDS)).isTrue();
            }
            for (RedisLock lock : locks) {
                String key = "distlock:{" + lock.getName() + "}";
                assertThat(redis.server().commandString("HGET", key, "job")).as("the holder's count in %s", key)
                        .isEqualTo("1");
                lock.unlockAsync("job").get(10, TimeUnit.SECONDS);
                assertThat(redis.server().command("EXISTS", key)).as("%s freed by its one unlock", key).isEqualTo(0L);
            }
        }
    }

    /**
     * An undo Redis answers with an error that no retry can cure (the lock's key is not a lock) is
     * not sent again: it ends with that answer, rather than every second while the client lives.
     */
    @Test
    void anUndoRedisRefusesForGoodIsNotSentAgain() throws Exception {
        LockClient client = clients.open(redis.server());
        RedisLock lock = client.getLock("not-a-lock");
        lock.lock();
        lock.unlock();  // the scripts are loaded now
        redis.server().command("SET", "distlock:{not-a-lock}", "some value");
        ScriptStats.reset(redis.server());

        assertThatThrownBy(() -> lock.tryLock(0, 10, TimeUnit.SECONDS)).isInstanceOf(LockException.class)
                .hasMessageContaining("WRONGTYPE");
        awaitTrue("the attempt and its undo were refused", Duration.ofSeconds(5),
                () -> ScriptStats.scriptCallsWithErrors(redis.server()) >= 2);
        long refused = ScriptStats.scriptCallsWithErrors(redis.server());
        Thread.sleep(2_500);  // longer than the longest pause between retries
        assertThat(ScriptStats.scriptCallsWithErrors(redis.server())).as("scripts asked for since").isEqualTo(refused);
    }

    /** Long enough that the test sees both attempts run before the second one times out. */
    private static final Duration LOST_ATTEMPT_TIMEOUT = Duration.ofSeconds(8);
    private static final List<String> LOST_KEYS = List.of("distlock:{lost-answer-1}", "distlock:{lost-answer-2}");

    private static long existing(List<String> keys) {
        return keys.stream().filter(key -> (Long) redis.server().command("EXISTS", key) == 1L).count();
    }

    /**
     * Two attempts of holder {@code job} run in Redis, then their connection is reset before
     * either answer arrives, and every reconnect fails for a while. The first attempt fails with
     * the reset; the second, which Lettuce keeps to send again, times out while the client cannot
     * reconnect, so its undo cannot be sent either (Lettuce fails commands at once while its last
     * reconnect failed). Returns once the client is connected again.
     *
     * @return the two locks, each still held in Redis by the lost attempt
     */
    private static List<RedisLock> loseAttemptsAndTheirUndos(ReplyDroppingProxy proxy, LockClient client) {
        List<RedisLock> locks = List.of(client.getLock("lost-answer-1"), client.getLock("lost-answer-2"));
        locks.get(0).lock(60, TimeUnit.SECONDS);
        locks.get(0).unlock();  // the scripts are loaded now: the answers held back are the attempts'

        proxy.delayReplies(30_000);
        List<CompletableFuture<Boolean>> attempts = locks.stream()
                .map(lock -> lock.tryLockAsync(0, 60, TimeUnit.SECONDS, "job")).toList();
        awaitTrue("both attempts ran in Redis", Duration.ofSeconds(10),
                () -> existing(LOST_KEYS) == 2L);
        proxy.resetNewConnections();
        proxy.resetConnections();
        for (CompletableFuture<Boolean> attempt : attempts) {
            assertThatThrownBy(() -> attempt.get(LOST_ATTEMPT_TIMEOUT.toSeconds() + 10, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(LockException.class);
        }
        proxy.delayReplies(0);
        proxy.passNewConnections();
        RedisLock probe = client.getLock("lost-answer-probe");
        awaitTrue("the client reconnected", Duration.ofSeconds(30), () -> {
            try {
                return probe.tryLock();
            } catch (LockException e) {
                return false;
            }
        });
        probe.unlock();
        return locks;
    }

    @Test
    void unreachableRedisFailsTheBuildWithAClearMessage() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        long start = System.nanoTime();
        assertThatThrownBy(() -> LockClient.builder()
                .redisUri("redis://127.0.0.1:" + closedPort)
                .commandTimeout(Duration.ofSeconds(1))
                .build())
                .isInstanceOf(LockException.class)
                .hasMessageContaining("connect to Redis at redis://127.0.0.1:" + closedPort)
                .hasMessageContaining("reachable");
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(5_000);
    }

    @Test
    void wrongPasswordFailsTheBuildWithoutShowingThePassword() {
        try (RedisServer secured = RedisServers.start(RedisServerOptions.defaults().withPassword("right-secret"))) {
            String uri = "redis://:wrong-secret@" + secured.host() + ":" + secured.port();
            assertThatThrownBy(() -> LockClient.builder().redisUri(uri).build())
                    .isInstanceOf(LockException.class)
                    .hasMessageContaining("credentials")
                    .hasMessageNotContaining("wrong-secret");

            String good = "redis://:right-secret@" + secured.host() + ":" + secured.port();
            try (LockClient client = LockClient.builder().redisUri(good).build()) {
                RedisLock lock = client.getLock("secured");
                lock.lock();
                lock.unlock();
            }
        }
    }
}

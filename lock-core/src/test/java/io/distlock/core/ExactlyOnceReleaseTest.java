package io.distlock.core;

import io.distlock.core.internal.scripts.Scripts;
import io.distlock.test.RedisExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.distlock.test.Polling.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Lettuce delivers at least once: a command whose answer was lost with its connection is sent
 * again after the reconnect, and its second run must answer what its first run did. A release
 * remembers that it ran, so "released before" is never taken for "never held", and "never held"
 * is never taken for "released before". Each client here talks to Redis through a proxy that
 * loses answers; the command timeout is long, so Lettuce sends again rather than giving up.
 */
@Timeout(60)
class ExactlyOnceReleaseTest {

    private static final Duration PATIENCE = Duration.ofSeconds(10);

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    @RegisterExtension
    final TestClients clients = new TestClients();

    /**
     * Another client took the lock away and released it; the holder's release finds nothing, and
     * its answer is lost. The run sent again finds nothing either: that is a lost lease, whatever
     * happened to the connection in between.
     */
    @Test
    void aReleaseSentAgainAfterTheLeaseWasLostReportsTheLoss() {
        RecordingListener events = new RecordingListener();
        try (ReplyDroppingProxy proxy = proxy(); LockClient client = throughProxy(proxy, events)) {
            RedisLock lock = client.getLock("lost-then-resent");
            lock.lock(30, TimeUnit.SECONDS);
            lock.unlock();  // the scripts are loaded now: the answer to drop is the release's own
            lock.lock(30, TimeUnit.SECONDS);
            RedisLock taker = clients.open(redis.server()).getLock("lost-then-resent");
            assertThat(taker.forceUnlock()).isTrue();
            assertThat(taker.tryLock()).isTrue();
            taker.unlock();

            proxy.dropNextReplyAndDisconnect();
            assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class);

            assertThat(proxy.dropped()).as("the first answer was lost").isTrue();
            assertThat(events.lost).as("the loss is reported").hasSize(1);
        }
    }

    /**
     * One holder releases two holds; both releases run, both answers are lost, and Lettuce sends
     * both again. The first of them was sent while the holder still had its other hold: it must
     * answer "released before", not "nothing held", which used to make it a lost lease.
     */
    @Test
    void twoReleasesOfOneHolderSentAgainAreNoLostLease() throws Exception {
        RecordingListener events = new RecordingListener();
        try (ReplyDroppingProxy proxy = proxy(); LockClient client = throughProxy(proxy, events)) {
            RedisLock lock = client.getLock("two-resent");
            assertThat(lock.tryLockAsync(0, 30, TimeUnit.SECONDS, "h").get(5, TimeUnit.SECONDS)).isTrue();
            lock.unlockAsync("h").get(5, TimeUnit.SECONDS);  // the scripts are loaded now
            for (int hold = 0; hold < 2; hold++) {
                assertThat(lock.tryLockAsync(0, 30, TimeUnit.SECONDS, "h").get(5, TimeUnit.SECONDS)).isTrue();
            }

            proxy.delayReplies(3_000);
            List<CompletableFuture<Void>> releases = List.of(lock.unlockAsync("h"), lock.unlockAsync("h"));
            awaitTrue("both releases ran", PATIENCE,
                    () -> redis.server().commandString("EXISTS", "distlock:{two-resent}").equals("0"));
            proxy.delayReplies(0);
            proxy.closeConnections();  // both answers are lost; Lettuce sends both again

            for (CompletableFuture<Void> release : releases) {
                release.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
            }
            assertThat(events.lost).as("no lease was lost").isEmpty();
            assertThat(events.released).hasSize(3);
        }
    }

    /**
     * The holder hands the lock to a sleeping waiter of its client; the answer is lost; the waiter
     * gives up; Lettuce sends the hand-off again. Its second run must say the hand-off happened, so
     * the waiter that gave up takes its hold back, rather than leave the lock held for its lease.
     */
    @Test
    void aHandOffSentAgainToAWaiterThatGaveUpLeavesTheLockFree() throws Exception {
        RecordingListener events = new RecordingListener();
        try (ReplyDroppingProxy proxy = proxy(); LockClient client = throughProxy(proxy, events)) {
            RedisLock lock = client.getLock("handed-resent");
            assertThat(lock.tryLockAsync(0, 30, TimeUnit.SECONDS, "giver").get(5, TimeUnit.SECONDS)).isTrue();
            ScriptStats.reset(redis.server());
            CompletableFuture<Boolean> receiver = lock.tryLockAsync(30, 30, TimeUnit.SECONDS, "receiver");
            awaitReceiverAsleep(lock);

            proxy.delayReplies(5_000);  // the hand-off runs; its answer, and any wake-up, wait
            CompletableFuture<Void> release = lock.unlockAsync("giver");
            awaitTrue("the hand-off ran: the receiver holds the lock, which was never free", PATIENCE,
                    () -> redis.server().commandString("HEXISTS", "distlock:{handed-resent}", "receiver").equals("1"));
            assertThat(receiver.cancel(true)).as("the receiver gives up before it hears").isTrue();
            proxy.delayReplies(0);
            proxy.closeConnections();  // the answer is lost; Lettuce sends the hand-off again

            release.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
            awaitTrue("the receiver's hold is taken back", PATIENCE,
                    () -> redis.server().commandString("EXISTS", "distlock:{handed-resent}").equals("0"));
            assertThat(events.lost).as("the giver released its hold").isEmpty();
        }
    }

    /**
     * The hand-off ran, its answer was lost, and the receiver's short lease ran out in Redis while
     * the client reconnected; another client took the lock. The hand-off sent again must not tell
     * the receiver it holds the lock: its hold is gone.
     */
    @Test
    void aHandOffSentAgainAfterTheReceiversLeaseRanOutDoesNotGrantTheLock() throws Exception {
        try (ReplyDroppingProxy proxy = proxy(); LockClient client = throughProxy(proxy, new RecordingListener())) {
            RedisLock lock = client.getLock("handed-expired");
            redis.server().command("SCRIPT", "LOAD", Scripts.HAND_OFF.source());  // the answer to drop is its run's
            assertThat(lock.tryLockAsync(0, 30, TimeUnit.SECONDS, "giver").get(5, TimeUnit.SECONDS)).isTrue();
            ScriptStats.reset(redis.server());
            CompletableFuture<Boolean> receiver = lock.tryLockAsync(30, 1, TimeUnit.SECONDS, "receiver");
            awaitReceiverAsleep(lock);

            proxy.holdNewConnections();
            proxy.dropNextReplyAndDisconnect();
            CompletableFuture<Void> release = lock.unlockAsync("giver");
            awaitTrue("the hand-off ran and its answer was lost", PATIENCE, proxy::dropped);
            assertThat(redis.server().commandString("HEXISTS", "distlock:{handed-expired}", "receiver"))
                    .as("the lock went to the receiver").isEqualTo("1");
            awaitTrue("the receiver's 1 s lease ran out in Redis", PATIENCE,
                    () -> redis.server().commandString("EXISTS", "distlock:{handed-expired}").equals("0"));
            RedisLock other = clients.open(redis.server()).getLock("handed-expired");
            assertThat(other.tryLock(0, 30, TimeUnit.SECONDS)).isTrue();
            proxy.passNewConnections();  // Lettuce sends the hand-off again

            release.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
            assertThat(receiver.copy().completeOnTimeout(false, 1, TimeUnit.SECONDS).get())
                    .as("the receiver is not told it holds the lock another client holds").isFalse();
            assertThat(other.isHeldByCurrentThread()).isTrue();
            other.unlock();
            assertThat(receiver.get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).as("its turn came").isTrue();
            lock.unlockAsync("receiver").get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        }
    }

    /**
     * The holder's lease was lost; its release runs and finds nothing, then its next attempt takes
     * the lock; both answers are lost and Lettuce sends both again. The release sent again finds
     * the holder holding (its new hold), and must still answer as its first run did: nothing held.
     */
    @Test
    void aReleaseSentAgainAnswersAsItsFirstRunAfterTheHolderTookTheLockAgain() throws Exception {
        RecordingListener events = new RecordingListener();
        try (ReplyDroppingProxy proxy = proxy(); LockClient client = throughProxy(proxy, events)) {
            RedisLock lock = client.getLock("lost-then-taken");
            assertThat(lock.tryLockAsync(0, 30, TimeUnit.SECONDS, "job").get(5, TimeUnit.SECONDS)).isTrue();
            lock.unlockAsync("job").get(5, TimeUnit.SECONDS);  // the scripts are loaded now
            assertThat(lock.tryLockAsync(0, 30, TimeUnit.SECONDS, "job").get(5, TimeUnit.SECONDS)).isTrue();
            RedisLock taker = clients.open(redis.server()).getLock("lost-then-taken");
            assertThat(taker.forceUnlock()).isTrue();

            proxy.delayReplies(5_000);
            CompletableFuture<Void> release = lock.unlockAsync("job");
            CompletableFuture<Boolean> next = lock.tryLockAsync(0, 30, TimeUnit.SECONDS, "job");
            awaitTrue("both ran: the holder holds the lock again", PATIENCE,
                    () -> redis.server().commandString("HEXISTS", "distlock:{lost-then-taken}", "job").equals("1"));
            proxy.delayReplies(0);
            proxy.closeConnections();  // both answers are lost; Lettuce sends both again

            assertThatThrownBy(() -> release.get(PATIENCE.toSeconds(), TimeUnit.SECONDS))
                    .hasCauseInstanceOf(LockLostException.class);
            assertThat(next.get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
            assertThat(events.lost).as("the loss is reported").hasSize(1);
            lock.unlockAsync("job").get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        }
    }

    /**
     * The release's first send never reached Redis, and nothing renews a hold being released, so
     * its lease ran out before the caller called {@code unlock()} again. That is no lost lease: it
     * ended after the caller had released it.
     */
    @Test
    void aReleaseWhoseFirstSendNeverRanAndWhoseLeaseRanOutSinceIsNoLostLease() {
        RecordingListener events = new RecordingListener();
        try (ReplyDroppingProxy proxy = proxy();
             LockClient client = LockClient.builder().redisUri(proxy.uri()).commandTimeout(Duration.ofSeconds(2))
                     .watchdogTimeout(Duration.ofSeconds(3)).listener(events).build()) {
            RedisLock lock = client.getLock("ran-out-unconfirmed");
            lock.lock();
            lock.unlock();  // the scripts are loaded now
            lock.lock();

            proxy.holdNewConnections();
            proxy.closeConnections();  // Redis is out of reach for a while
            assertThatThrownBy(lock::unlock).isInstanceOf(LockException.class);
            awaitTrue("the lease ran out", PATIENCE,
                    () -> redis.server().commandString("EXISTS", "distlock:{ran-out-unconfirmed}").equals("0"));
            proxy.passNewConnections();

            lock.unlock();  // "Calling unlock again is safe."
            assertThat(events.lost).isEmpty();
        }
    }

    /**
     * Waits until the receiver sleeps: it subscribed and tried once (Redis ran its attempt), and a
     * command sent after that on the same connection came back, so the attempt's answer, which puts
     * the receiver to sleep as it arrives, came before it.
     */
    private static void awaitReceiverAsleep(RedisLock lock) {
        awaitTrue("the receiver subscribed and tried once", PATIENCE, () -> ScriptStats.scriptCalls(redis.server()) >= 1);
        assertThat(lock.isLocked()).isTrue();
    }

    private static ReplyDroppingProxy proxy() {
        return new ReplyDroppingProxy(redis.server().host(), redis.server().port());
    }

    /** A client whose commands time out only after the proxy's faults are over: Lettuce sends them again. */
    private static LockClient throughProxy(ReplyDroppingProxy proxy, RecordingListener events) {
        return LockClient.builder().redisUri(proxy.uri()).commandTimeout(Duration.ofSeconds(20)).listener(events)
                .build();
    }
}

package io.distlock.core;

import io.distlock.test.RedisExtension;
import io.distlock.test.RedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.distlock.test.Polling.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every acquisition is a hold of its own: overlapping acquisitions of one holder each count, and
 * undoing an abandoned one takes back exactly its hold, never a later one of the same holder.
 */
@Timeout(60)
class HoldIdentityTest {

    private static final Duration PATIENCE = Duration.ofSeconds(10);

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    @RegisterExtension
    final TestClients clients = new TestClients();

    /**
     * The interleaving: the first attempt is sent and cancelled, the retry is sent behind
     * it on the same connection, Redis applies both (writes are held back until both are there),
     * and the cleanup of the first must not take the retry's hold.
     */
    @Test
    void cleaningUpAnAbandonedAttemptLeavesTheRetrysHold() throws Exception {
        RedisLock lock = clients.open(redis.server()).getLock("job-7");
        redis.server().command("CLIENT", "PAUSE", "5000", "WRITE");
        CompletableFuture<Boolean> retry;
        try {
            CompletableFuture<Boolean> abandoned = lock.tryLockAsync(5, 10, TimeUnit.SECONDS, "job-7");
            assertThat(abandoned.cancel(true)).as("cancelled before Redis ran it").isTrue();
            retry = lock.tryLockAsync(0, 10, TimeUnit.SECONDS, "job-7");
        } finally {
            redis.server().command("CLIENT", "UNPAUSE");
        }

        assertThat(retry.get(5, TimeUnit.SECONDS)).isTrue();
        // The cleanup is sent when the first attempt's answer arrives, before the retry's: any
        // command sent now runs after it.
        assertThat(lock.isLocked()).as("the retry's hold survived the cleanup").isTrue();
        assertThat(clients.open(redis.server()).getLock("job-7").tryLock(0, 10, TimeUnit.SECONDS))
                .as("another client is kept out").isFalse();
        lock.unlockAsync("job-7").get(5, TimeUnit.SECONDS);
        assertThat(lock.isLocked()).as("free after the retry's unlock").isFalse();
    }

    /**
     * The undo of an abandoned read attempt whose reader lease ended before the caller tried
     * again: the attempt's answer is held back (a slow network), its caller gives up, its lease
     * runs out while another client's reader keeps the lock, and the retry under the same holder
     * id starts a fresh hold. Only then does the first answer arrive and the engine undo that
     * attempt by its hold id, which must name nothing any more: the ended hold went with its
     * lease, marker and all.
     */
    @Test
    void undoingAnAbandonedReadWhoseLeaseEndedLeavesTheRetrysHold() throws Exception {
        String name = "ended-reader";
        RedisReadWriteLock keeper = clients.open(redis.server()).getReadWriteLock(name);
        RedisLock writer = clients.open(redis.server()).getReadWriteLock(name).writeLock();
        // Caches the scripts, so no answer held back below costs another round trip first.
        assertThat(writer.tryLock(0, 10, TimeUnit.SECONDS)).isTrue();
        writer.unlock();
        keeper.readLock().lock(60, TimeUnit.SECONDS);

        try (ReplyDroppingProxy proxy = new ReplyDroppingProxy(redis.server().host(), redis.server().port());
             LockClient slow = LockClient.builder().redisUri(proxy.uri()).commandTimeout(Duration.ofSeconds(20))
                     .build()) {
            RedisLock read = slow.getReadWriteLock(name).readLock();
            proxy.delayReplies(2_000);
            CompletableFuture<Boolean> abandoned = read.tryLockAsync(0, 300, TimeUnit.MILLISECONDS, "job");
            assertThat(abandoned.cancel(true)).as("given up before its answer came").isTrue();
            awaitTrue("the abandoned attempt's reader lease ended", PATIENCE, () -> readerLeaseEnded(name, "job"));
            assertThat(redis.server().command("HEXISTS", "distlock:{" + name + "}", "r:job"))
                    .as("precondition: nothing cleaned up the ended hold, nor undid it, yet").isEqualTo(1L);

            CompletableFuture<Boolean> retry = read.tryLockAsync(0, 60, TimeUnit.SECONDS, "job");
            assertThat(retry.get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
            proxy.delayReplies(0);
            // The undo went out when the first answer came, before the retry's: this runs after it.
            assertThat(read.isHeldBy("job")).as("the retry's hold survived the undo").isTrue();
            keeper.readLock().unlock();
            assertThat(writer.tryLock(0, 10, TimeUnit.SECONDS)).as("no writer while the retry reads").isFalse();

            read.unlockAsync("job").get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
            assertThat(writer.tryLock(0, 10, TimeUnit.SECONDS)).as("the writer once the retry let go").isTrue();
            writer.unlock();
        }
    }

    /** @return whether the reader's own lease, by the server's clock, has ended */
    private static boolean readerLeaseEnded(String name, String reader) {
        String ends = redis.server().commandString("ZSCORE", "distlock:{" + name + "}:readers", reader);
        List<?> time = (List<?>) redis.server().command("TIME");
        long now = Long.parseLong((String) time.get(0)) * 1000 + Long.parseLong((String) time.get(1)) / 1000;
        return ends != null && Double.parseDouble(ends) <= now;
    }

    @Test
    void overlappingAcquisitionsOfOneHolderEachNeedTheirOwnUnlock() throws Exception {
        for (RedisLock lock : LockKinds.every(clients.open(redis.server()), "overlap")) {
            CompletableFuture<Boolean> first = lock.tryLockAsync(0, 10, TimeUnit.SECONDS, "h");
            CompletableFuture<Boolean> second = lock.tryLockAsync(0, 10, TimeUnit.SECONDS, "h");
            assertThat(first.get(5, TimeUnit.SECONDS)).as(lock + ": first").isTrue();
            assertThat(second.get(5, TimeUnit.SECONDS)).as(lock + ": second").isTrue();

            lock.unlockAsync("h").get(5, TimeUnit.SECONDS);
            assertThat(lock.isHeldBy("h")).as(lock + ": one unlock leaves the other hold").isTrue();
            lock.unlockAsync("h").get(5, TimeUnit.SECONDS);
            assertThat(lock.isLocked()).as(lock + ": free after both unlocks").isFalse();
        }
    }

    /**
     * One holder's second acquisition and its release of the first overlap, with the release sent
     * a random moment (seeded) after the acquisition: whichever of the two Redis and the client see
     * first, the hold that is left is the client's, renewed by its watchdog, and one unlock frees
     * the lock. A release that took its hold for the holder's last must not stop renewing a hold
     * an acquisition added meanwhile.
     */
    @Test
    void theHoldLeftByAnOverlappingAcquisitionAndReleaseIsRenewed() throws Exception {
        long seed = Long.getLong("distlock.test.seed", System.nanoTime());
        Random random = new Random(seed);
        LockClient client = clients.open(redis.server());
        RedisLock lock = client.getLock("overlapping-release");
        for (int round = 0; round < 2_000; round++) {
            String where = "seed " + seed + ", round " + round;
            assertThat(lock.tryLockAsync(0, -1, TimeUnit.SECONDS, "h").get(5, TimeUnit.SECONDS)).isTrue();
            CompletableFuture<Boolean> second = lock.tryLockAsync(0, -1, TimeUnit.SECONDS, "h");
            long sendReleaseAt = System.nanoTime() + random.nextInt(400_000);
            while (System.nanoTime() - sendReleaseAt < 0) {
                Thread.onSpinWait();
            }
            CompletableFuture<Void> release = lock.unlockAsync("h");
            assertThat(second.get(5, TimeUnit.SECONDS)).as(where).isTrue();
            release.get(5, TimeUnit.SECONDS);

            assertThat(redis.server().commandString("HGET", "distlock:{overlapping-release}", "h")).as(where)
                    .isEqualTo("1");
            assertThat(client.watchdogHoldCount()).as(where + ": the hold left is renewed").isEqualTo(1);
            lock.unlockAsync("h").get(5, TimeUnit.SECONDS);
            assertThat(lock.isLocked()).as(where).isFalse();
        }
    }

    /**
     * A wait cancelled while its attempt may be on its way, and a retry right behind it: the
     * cancelled wait's cleanup must leave the retry's hold. Repeated, since where the cancel lands
     * is up to the scheduler.
     */
    @Test
    void aCancelledWaitNeverTakesTheNextHoldOfTheSameHolder() throws Exception {
        LockClient client = clients.open(redis.server());
        RedisLock lock = client.getLock("gives-up");
        RedisLock rival = clients.open(redis.server()).getLock("gives-up");
        for (int round = 0; round < 20; round++) {
            assertThat(rival.tryLockAsync(0, 10, TimeUnit.SECONDS, "rival").get(5, TimeUnit.SECONDS)).isTrue();
            CompletableFuture<Boolean> waiting = lock.tryLockAsync(10, 10, TimeUnit.SECONDS, "me");
            rival.unlockAsync("rival");  // the waiter's next attempt may be on its way now
            if (!waiting.cancel(true) && waiting.join()) {
                lock.unlockAsync("me").get(5, TimeUnit.SECONDS);  // it was acquired before the cancel
            }
            assertThat(lock.tryLockAsync(2, 10, TimeUnit.SECONDS, "me").get(5, TimeUnit.SECONDS)).isTrue();

            assertThat(lock.isHeldBy("me")).as("round " + round + ": the hold survived").isTrue();
            lock.unlockAsync("me").get(5, TimeUnit.SECONDS);
            awaitTrue("round " + round + ": the lock is free", PATIENCE, () -> !lock.isLocked());
        }
    }

    /**
     * The last release never reached Redis (the connection died while Redis held the command
     * back), and the thread locks again, as the next request on a pooled thread would: the failed
     * release goes out again before the attempt, the watchdog renews the new hold, and the one
     * unlock() that ends it leaves nothing behind.
     */
    @Test
    void lockingAgainAfterAnUnconfirmedLastReleaseIsRenewedAndLeavesNothingBehind() throws Exception {
        Duration watchdog = Duration.ofSeconds(3);
        LockClient client = clients.open(redis.server(), b -> b.commandTimeout(Duration.ofMillis(500))
                .watchdogTimeout(watchdog));
        RedisLock lock = client.getLock("unconfirmed-release");
        lock.lock();

        releaseThatNeverRuns(redis.server(), lock);
        assertThat(redis.server().commandString("HGET", "distlock:{unconfirmed-release}",
                client.clientId() + ":" + Thread.currentThread().getId()))
                .as("precondition: Redis still has the hold").isEqualTo("1");

        lock.lock();
        assertThat(client.watchdogHoldCount()).as("the watchdog renews the hold again").isEqualTo(1);
        long until = System.nanoTime() + watchdog.multipliedBy(2).toNanos();
        awaitTrue("two leases passed", watchdog.multipliedBy(4), () -> System.nanoTime() > until);
        assertThat(lock.isHeldByCurrentThread()).as("the hold outlived two leases").isTrue();

        lock.unlock();
        assertThat(lock.isLocked()).as("one unlock ends the one hold the caller has: the release that failed "
                + "was sent again before the second lock()").isFalse();
        assertThat(client.watchdogHoldCount()).as("nothing left to renew").isZero();
    }

    /** Pauses writes, lets the release time out, and kills the connection so it never runs. */
    private static void releaseThatNeverRuns(RedisServer server, RedisLock lock) {
        server.command("CLIENT", "PAUSE", "10000", "WRITE");
        try {
            assertThatThrownBy(lock::unlock).isInstanceOf(LockException.class).hasMessageContaining("safe");
            server.command("CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes");
        } finally {
            server.command("CLIENT", "UNPAUSE");
        }
    }

    @Test
    void reenteringALockWhoseLeaseWasLostReportsTheLoss() {
        RecordingListener events = new RecordingListener();
        LockClient client = clients.open(redis.server(), b -> b.listener(events));
        for (RedisLock lock : LockKinds.every(client, "lost-reentry")) {
            events.lost.clear();
            lock.lock();
            redis.server().command("DEL", "distlock:{lost-reentry}");

            assertThatThrownBy(lock::lock).as(lock.toString()).isInstanceOf(LockLostException.class);
            assertThat(events.lost).as(lock + ": the loss is reported once").hasSize(1);
            assertThat(lock.isLocked()).as(lock + ": no new hold was started").isFalse();
            assertThatThrownBy(lock::unlock).as(lock.toString()).isInstanceOf(LockLostException.class);

            lock.lock();  // the lost hold is closed: this is a first hold again
            lock.unlock();
            assertThat(lock.isLocked()).isFalse();
        }
    }

    @Test
    void aFencedReentryNeedsNoFenceCounterInRedis() {
        FencedLock lock = clients.open(redis.server()).getFencedLock("no-fence");
        long token = lock.lockAndGetToken();
        redis.server().command("DEL", "distlock:{no-fence}:fence");

        lock.lock();
        assertThat(lock.getToken()).isEqualTo(token);
        lock.unlock();
        lock.unlock();
        assertThat(lock.isLocked()).isFalse();
    }

    /**
     * Waiters of every kind sleep on one channel: a reentrant holder hands off only to its own
     * kind. The fenced waiter sleeps first, so it is the one an unaware hand-off would pick.
     */
    @Test
    void aHandOffGoesOnlyToAWaiterOfTheSameKind() throws Exception {
        RecordingListener events = new RecordingListener();
        LockClient client = clients.open(redis.server(), b -> b.listener(events));
        FencedLock fenced = client.getFencedLock("kinds");
        long before = fenced.lockAndGetToken();
        fenced.unlock();
        RedisLock plain = client.getLock("kinds");
        RedisLock write = client.getReadWriteLock("kinds").writeLock();
        plain.lock();
        ScriptStats.reset(redis.server());
        CompletableFuture<Long> fencedWaiter = CompletableFuture.supplyAsync(() -> {
            long token = fenced.lockAndGetToken();
            fenced.unlock();
            return token;
        });
        awaitTrue("the fenced waiter tried once subscribed, and sleeps", PATIENCE,
                () -> ScriptStats.scriptCalls(redis.server()) >= 1);
        CompletableFuture<Void> writeWaiter = CompletableFuture.runAsync(() -> {
            write.lock();
            write.unlock();
        });
        awaitTrue("the write waiter sleeps too", PATIENCE, () -> events.waiting.size() == 2);

        plain.unlock();

        assertThat(fencedWaiter.get(10, TimeUnit.SECONDS)).as("the fenced waiter got a fresh token").isGreaterThan(before);
        writeWaiter.get(10, TimeUnit.SECONDS);
        assertThat(plain.isLocked()).isFalse();
    }

    /**
     * Redis refuses a hand-off because it counts a hold more than the releasing holder knows of
     * (an abandoned attempt whose undo is on its way), and the release the ordinary way frees the
     * lock once that undo ran. The claimed waiter was not handed anything: it must get the lock by
     * its own attempt, as one hold that Redis has, and not be told it holds it before that.
     */
    @Test
    void aWaiterWhoseHandOffRedisRefusedIsNotTreatedAsHandedTheLock() throws Exception {
        RecordingListener events = new RecordingListener();
        LockClient client = clients.open(redis.server(), b -> b.listener(events));
        RedisLock lock = client.getLock("refused-hand-off");
        assertThat(lock.tryLockAsync(0, 30, TimeUnit.SECONDS, "h").get(5, TimeUnit.SECONDS)).isTrue();
        ScriptStats.reset(redis.server());
        CompletableFuture<Void> waiter = CompletableFuture.runAsync(() -> {
            lock.lock();
            try {
                assertThat(lock.isHeldByCurrentThread()).as("Redis has the waiter's hold").isTrue();
            } finally {
                lock.unlock();
            }
        });
        awaitTrue("the waiter tried once, and sleeps", PATIENCE,
                () -> ScriptStats.scriptCalls(redis.server()) >= 1 && events.waiting.size() == 1);

        redis.server().command("CLIENT", "PAUSE", "1000", "WRITE");
        CompletableFuture<Void> release;
        try {
            CompletableFuture<Boolean> abandoned = lock.tryLockAsync(5, 30, TimeUnit.SECONDS, "h");
            assertThat(abandoned.cancel(true)).isTrue();
            release = lock.unlockAsync("h");
        } finally {
            redis.server().command("CLIENT", "UNPAUSE");
        }

        release.get(10, TimeUnit.SECONDS);
        waiter.get(10, TimeUnit.SECONDS);
        awaitTrue("every acquisition ended", PATIENCE, () -> client.locks().isEmpty());
        assertThat(events.acquired).as("the waiter acquired once").hasSize(2);
        assertThat(events.lost).isEmpty();
        assertThat(lock.isLocked()).isFalse();
    }

    /**
     * Two releases of one holder time out, and both ran. The holder's next acquisition sends them
     * again first: both find nothing held, which is what releases that already happened find, not
     * a lost lease.
     */
    @Test
    void releasesSentAgainThatAllRanBeforeAreNoLostLease() throws Exception {
        RecordingListener events = new RecordingListener();
        LockClient client = clients.open(redis.server(), b -> b.commandTimeout(Duration.ofMillis(300))
                .listener(events));
        RedisLock lock = client.getLock("resent-releases");
        assertThat(lock.tryLockAsync(0, 30, TimeUnit.SECONDS, "h").get(5, TimeUnit.SECONDS)).isTrue();
        lock.unlockAsync("h").get(5, TimeUnit.SECONDS);  // the scripts are loaded now
        assertThat(lock.tryLockAsync(0, 30, TimeUnit.SECONDS, "h").get(5, TimeUnit.SECONDS)).isTrue();
        assertThat(lock.tryLockAsync(0, 30, TimeUnit.SECONDS, "h").get(5, TimeUnit.SECONDS)).isTrue();

        redis.server().command("CLIENT", "PAUSE", "600", "WRITE");
        CompletableFuture<Void> first = lock.unlockAsync("h");
        CompletableFuture<Void> second = lock.unlockAsync("h");
        for (CompletableFuture<Void> release : List.of(first, second)) {
            assertThatThrownBy(() -> release.get(5, TimeUnit.SECONDS)).hasCauseInstanceOf(LockException.class);
        }
        awaitTrue("both releases ran once Redis went on", PATIENCE,
                () -> redis.server().commandString("EXISTS", "distlock:{resent-releases}").equals("0"));

        assertThat(lock.tryLockAsync(0, 30, TimeUnit.SECONDS, "h").get(5, TimeUnit.SECONDS)).isTrue();
        lock.unlockAsync("h").get(5, TimeUnit.SECONDS);
        assertThat(events.lost).as("no lease was lost").isEmpty();
        assertThat(lock.isLocked()).isFalse();
    }

    @Test
    void aListenerThatThrowsAnErrorDoesNotHangTheLock() throws Exception {
        LockClient client = clients.open(redis.server(), b -> b.listener(new LockListener() {
            @Override
            public void onAcquired(LockEvent event) {
                throw new AssertionError("a listener's own bug");
            }
        }));
        RedisLock lock = client.getLock("listener-error");
        CompletableFuture<Void> lockAndUnlock = CompletableFuture.runAsync(() -> {
            lock.lock();
            lock.unlock();
        });
        lockAndUnlock.get(10, TimeUnit.SECONDS);
        assertThat(lock.isLocked()).isFalse();
    }
}

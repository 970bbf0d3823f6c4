package io.distlock.core;

import io.distlock.test.JavaProcess;
import io.distlock.test.RedisExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static io.distlock.core.LockAttempts.tryAndReleaseElsewhere;
import static io.distlock.test.Polling.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(60)
class ReadWriteLockTest {

    private static final Duration WATCHDOG = Duration.ofSeconds(2);
    /** The killed reader's lease: short, the test waits for its end. */
    private static final Duration DEAD_READER_LEASE = Duration.ofMillis(600);

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    @RegisterExtension
    final TestClients clients = new TestClients();

    @Test
    void readersShareAndExcludeWritersBothWays() throws Exception {
        RedisReadWriteLock mine = clients.open(redis.server()).getReadWriteLock("cfg");
        RedisReadWriteLock theirs = clients.open(redis.server()).getReadWriteLock("cfg");

        mine.readLock().lock();
        assertThat(tryAndReleaseElsewhere(theirs.readLock(), 0)).as("a second reader gets in").isTrue();
        assertThat(tryAndReleaseElsewhere(theirs.writeLock(), 200)).as("no writer while read").isFalse();
        mine.readLock().unlock();

        mine.writeLock().lock();
        assertThat(tryAndReleaseElsewhere(theirs.readLock(), 200)).as("no reader while written").isFalse();
        assertThat(tryAndReleaseElsewhere(theirs.writeLock(), 200)).as("no second writer").isFalse();
        mine.writeLock().unlock();
        assertThat(tryAndReleaseElsewhere(theirs.writeLock(), 0)).isTrue();
        assertThat(mine.readLock().isLocked()).isFalse();
    }

    @Test
    void aWritersReleaseWakesEveryWaitingReaderAtOnce() throws Exception {
        RedisReadWriteLock writer = clients.open(redis.server()).getReadWriteLock("wake");
        writer.writeLock().lock();  // watchdog lease of 30 s: only the message can wake the readers early
        try (WaitingReaders readers = new WaitingReaders("wake", 3)) {
            long released = System.nanoTime();
            writer.writeLock().unlock();
            readers.assertAllInSoonAfter(released);
        }
    }

    /**
     * The writer's release is published while the readers' client is disconnected, so nobody
     * hears it (here: the lock vanishes without a message, then the connection drops). The
     * re-subscription after the reconnect must wake every reader, not just one.
     */
    @Test
    void aReconnectWakesEveryWaitingReader() throws Exception {
        RedisReadWriteLock writer = clients.open(redis.server()).getReadWriteLock("reconnect");
        writer.writeLock().lock();
        try (WaitingReaders readers = new WaitingReaders("reconnect", 4)) {
            redis.server().command("DEL", "distlock:{reconnect}");
            long dropped = System.nanoTime();
            redis.server().command("CLIENT", "KILL", "TYPE", "pubsub");
            readers.assertAllInSoonAfter(dropped);
        }
    }

    /** Readers of one client, each waiting for the read lock on a thread of its own, then holding it. */
    private final class WaitingReaders implements AutoCloseable {

        private final RecordingListener events = new RecordingListener();
        private final LockClient client = clients.open(redis.server(), b -> b.listener(events));
        private final CountDownLatch allIn;
        private final CountDownLatch leave = new CountDownLatch(1);
        private final List<CompletableFuture<Boolean>> reads = new ArrayList<>();
        private final ExecutorService pool;

        WaitingReaders(String name, int readers) {
            allIn = new CountDownLatch(readers);
            pool = Executors.newFixedThreadPool(readers);
            for (int i = 0; i < readers; i++) {
                reads.add(CompletableFuture.supplyAsync(() -> {
                    RedisLock read = client.getReadWriteLock(name).readLock();
                    try {
                        boolean acquired = read.tryLock(20, TimeUnit.SECONDS);
                        allIn.countDown();
                        leave.await(20, TimeUnit.SECONDS);
                        read.unlock();
                        return acquired;
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                }, pool));
            }
            pool.shutdown();
            awaitTrue("all readers wait", Duration.ofSeconds(10), () -> events.waiting.size() == readers);
            // Let the last of them reach its sleep (it subscribes, looks once more, then sleeps).
            awaitTrue("subscribed", Duration.ofSeconds(10), () -> client.activeSubscriptions() == 1);
        }

        /** @param sinceNanos when the lock became free: all readers must be in long before a 30 s lease */
        void assertAllInSoonAfter(long sinceNanos) throws Exception {
            assertThat(allIn.await(10, TimeUnit.SECONDS)).as("every reader got in").isTrue();
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sinceNanos))
                    .as("all readers in together, long before the writer's lease").isLessThan(5_000);
            leave.countDown();
            for (CompletableFuture<Boolean> read : reads) {
                assertThat(read.get(10, TimeUnit.SECONDS)).isTrue();
            }
        }

        @Override
        public void close() {
            leave.countDown();
            pool.shutdownNow();
        }
    }

    @Test
    void aWriterMayDowngradeButAReaderCannotUpgrade() throws Exception {
        RedisReadWriteLock lock = clients.open(redis.server()).getReadWriteLock("grade");
        RedisReadWriteLock other = clients.open(redis.server()).getReadWriteLock("grade");

        lock.writeLock().lock();
        assertThat(lock.readLock().tryLock(0, TimeUnit.SECONDS)).as("downgrade").isTrue();
        lock.writeLock().unlock();
        assertThat(tryAndReleaseElsewhere(other.readLock(), 1_000)).as("other readers get in after the downgrade")
                .isTrue();
        assertThat(tryAndReleaseElsewhere(other.writeLock(), 200)).as("writers still wait for the read hold").isFalse();

        long start = System.nanoTime();
        assertThatThrownBy(() -> lock.writeLock().tryLock(10, TimeUnit.SECONDS))
                .isInstanceOf(IllegalMonitorStateException.class)
                .hasMessageContaining("upgrading is not supported");
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).as("refused at once").isLessThan(2_000);
        assertThat(lock.readLock().isHeldByCurrentThread()).isTrue();
        lock.readLock().unlock();
        assertThat(lock.readLock().isLocked()).isFalse();
    }

    @Test
    void aKilledReadersHoldEndsWithItsOwnLeaseWhileOthersKeepReading() throws Exception {
        RedisReadWriteLock live = clients.open(redis.server(), b -> b.watchdogTimeout(WATCHDOG))
                .getReadWriteLock("readers");
        RedisReadWriteLock writer = clients.open(redis.server()).getReadWriteLock("readers");

        try (JavaProcess reader = JavaProcess.start(LockHolderMain.class, redis.server().uri(), "readers",
                Long.toString(DEAD_READER_LEASE.toMillis()), "read")) {
            reader.awaitLine("LOCKED", Duration.ofSeconds(30));
            live.readLock().lock();
            reader.kill();  // nobody renews its hold any more
        }
        long past = System.nanoTime() + WATCHDOG.plus(DEAD_READER_LEASE).toNanos();
        awaitTrue("the dead reader's lease ended, the live one renewed", Duration.ofSeconds(20),
                () -> System.nanoTime() > past);
        assertThat(live.readLock().isHeldByCurrentThread()).isTrue();

        live.readLock().unlock();
        assertThat(tryAndReleaseElsewhere(writer.writeLock(), 2_000)).as("the dead reader does not block the writer")
                .isTrue();
    }

    @Test
    void locksOfOtherKindsUnderTheSameNameExcludeEachOther() throws Exception {
        LockClient client = clients.open(redis.server());
        RedisLock plain = client.getLock("shared-name");
        plain.lock();
        RedisReadWriteLock rw = clients.open(redis.server()).getReadWriteLock("shared-name");
        assertThat(tryAndReleaseElsewhere(rw.readLock(), 200)).isFalse();
        assertThat(tryAndReleaseElsewhere(rw.writeLock(), 200)).isFalse();
        plain.unlock();
        rw.readLock().lock();
        assertThat(tryAndReleaseElsewhere(client.getLock("shared-name"), 200)).isFalse();
        rw.readLock().unlock();
    }

    @Test
    void theWatchdogRenewsReadersAndWritersAndEventsNameTheHalf() throws Exception {
        RecordingListener events = new RecordingListener();
        RedisReadWriteLock lock = clients.open(redis.server(), b -> b.watchdogTimeout(WATCHDOG).listener(events))
                .getReadWriteLock("renewed");
        lock.writeLock().lock();
        lock.readLock().lock();
        long past = System.nanoTime() + WATCHDOG.multipliedBy(2).toNanos();
        awaitTrue("two leases passed", Duration.ofSeconds(20), () -> System.nanoTime() > past);
        assertThat(lock.writeLock().isHeldByCurrentThread()).isTrue();
        assertThat(lock.readLock().isHeldByCurrentThread()).isTrue();
        assertThat(events.lost).isEmpty();
        assertThat(events.renewed).extracting(LockEvent::lockType).contains("read", "write");
        lock.readLock().unlock();
        lock.writeLock().unlock();
        assertThat(events.acquired).extracting(LockEvent::lockType).containsExactly("write", "read");
        assertThat(lock.readLock().isLocked()).isFalse();
    }

    /**
     * A reader under the watchdog re-enters with a long lease of its own: the watchdog's renewals
     * must not cut that lease back to the watchdog's, or a reader cut off from Redis would lose its
     * hold long before the lease it was given.
     */
    @Test
    void theWatchdogNeverShortensALongerLeaseAReaderReEnteredWith() throws Exception {
        RecordingListener events = new RecordingListener();
        RedisLock read = clients.open(redis.server(), b -> b.watchdogTimeout(WATCHDOG).listener(events))
                .getReadWriteLock("long-reader").readLock();
        assertThat(read.tryLockAsync(0, 0, TimeUnit.SECONDS, "reader").get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(read.tryLockAsync(0, 60, TimeUnit.SECONDS, "reader").get(10, TimeUnit.SECONDS)).isTrue();

        int renewals = events.renewed.size();
        awaitTrue("the watchdog renewed the reader", Duration.ofSeconds(20), () -> events.renewed.size() > renewals);
        long readerEnds = Long.parseLong(redis.server().commandString("ZSCORE", "distlock:{long-reader}:readers",
                "reader"));
        assertThat(readerEnds - System.currentTimeMillis())
                .as("the reader's own lease (the server runs on this machine's clock)")
                .isGreaterThan(Duration.ofSeconds(50).toMillis());
        read.unlockAsync("reader").get(10, TimeUnit.SECONDS);
        read.unlockAsync("reader").get(10, TimeUnit.SECONDS);
    }
}

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

import static io.distlock.test.Polling.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(60)
class ReadWriteLockTest {

    private static final Duration WATCHDOG = Duration.ofMillis(600);

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    @RegisterExtension
    final TestClients clients = new TestClients();

    private static boolean tryIn(RedisLock lock, long waitMillis) throws Exception {
        return CompletableFuture.supplyAsync(() -> {
            try {
                boolean acquired = lock.tryLock(waitMillis, TimeUnit.MILLISECONDS);
                if (acquired) {
                    lock.unlock();
                }
                return acquired;
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }).get(20, TimeUnit.SECONDS);
    }

    @Test
    void readersShareAndExcludeWritersBothWays() throws Exception {
        RedisReadWriteLock mine = clients.open(redis.server()).getReadWriteLock("cfg");
        RedisReadWriteLock theirs = clients.open(redis.server()).getReadWriteLock("cfg");

        mine.readLock().lock();
        assertThat(tryIn(theirs.readLock(), 0)).as("a second reader gets in").isTrue();
        assertThat(tryIn(theirs.writeLock(), 200)).as("no writer while read").isFalse();
        mine.readLock().unlock();

        mine.writeLock().lock();
        assertThat(tryIn(theirs.readLock(), 200)).as("no reader while written").isFalse();
        assertThat(tryIn(theirs.writeLock(), 200)).as("no second writer").isFalse();
        mine.writeLock().unlock();
        assertThat(tryIn(theirs.writeLock(), 0)).isTrue();
        assertThat(mine.readLock().isLocked()).isFalse();
    }

    @Test
    void aWritersReleaseWakesEveryWaitingReaderAtOnce() throws Exception {
        RedisReadWriteLock writer = clients.open(redis.server()).getReadWriteLock("wake");
        RecordingListener events = new RecordingListener();
        LockClient readerClient = clients.open(redis.server(), b -> b.listener(events));
        writer.writeLock().lock();  // watchdog lease of 30 s: only the message can wake the readers early
        int readers = 3;
        CountDownLatch allIn = new CountDownLatch(readers);
        CountDownLatch leave = new CountDownLatch(1);
        List<CompletableFuture<Boolean>> reads = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(readers);
        for (int i = 0; i < readers; i++) {
            reads.add(CompletableFuture.supplyAsync(() -> {
                RedisLock read = readerClient.getReadWriteLock("wake").readLock();
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
        awaitTrue("subscribed", Duration.ofSeconds(10), () -> readerClient.activeSubscriptions() == 1);
        long released = System.nanoTime();
        writer.writeLock().unlock();
        assertThat(allIn.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - released))
                .as("all readers in together, long before the writer's lease").isLessThan(5_000);
        leave.countDown();
        for (CompletableFuture<Boolean> read : reads) {
            assertThat(read.get(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void aWriterMayDowngradeButAReaderCannotUpgrade() throws Exception {
        RedisReadWriteLock lock = clients.open(redis.server()).getReadWriteLock("grade");
        RedisReadWriteLock other = clients.open(redis.server()).getReadWriteLock("grade");

        lock.writeLock().lock();
        assertThat(lock.readLock().tryLock(0, TimeUnit.SECONDS)).as("downgrade").isTrue();
        lock.writeLock().unlock();
        assertThat(tryIn(other.readLock(), 1_000)).as("other readers get in after the downgrade").isTrue();
        assertThat(tryIn(other.writeLock(), 200)).as("writers still wait for the read hold").isFalse();

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
                Long.toString(WATCHDOG.toMillis()), "read")) {
            reader.awaitLine("LOCKED", Duration.ofSeconds(30));
            live.readLock().lock();
            reader.kill();  // nobody renews its hold any more
        }
        long past = System.nanoTime() + WATCHDOG.multipliedBy(3).toNanos();
        awaitTrue("the dead reader's lease ended, the live one renewed", Duration.ofSeconds(10),
                () -> System.nanoTime() > past);
        assertThat(live.readLock().isHeldByCurrentThread()).isTrue();

        live.readLock().unlock();
        assertThat(tryIn(writer.writeLock(), 2_000)).as("the dead reader does not block the writer").isTrue();
    }

    @Test
    void locksOfOtherKindsUnderTheSameNameExcludeEachOther() throws Exception {
        LockClient client = clients.open(redis.server());
        RedisLock plain = client.getLock("shared-name");
        plain.lock();
        RedisReadWriteLock rw = clients.open(redis.server()).getReadWriteLock("shared-name");
        assertThat(tryIn(rw.readLock(), 200)).isFalse();
        assertThat(tryIn(rw.writeLock(), 200)).isFalse();
        plain.unlock();
        rw.readLock().lock();
        assertThat(tryIn(client.getLock("shared-name"), 200)).isFalse();
        rw.readLock().unlock();
    }

    @Test
    void theWatchdogRenewsReadersAndWritersAndEventsNameTheHalf() throws Exception {
        RecordingListener events = new RecordingListener();
        RedisReadWriteLock lock = clients.open(redis.server(), b -> b.watchdogTimeout(WATCHDOG).listener(events))
                .getReadWriteLock("renewed");
        lock.writeLock().lock();
        lock.readLock().lock();
        long past = System.nanoTime() + WATCHDOG.multipliedBy(4).toNanos();
        awaitTrue("four leases passed", Duration.ofSeconds(20), () -> System.nanoTime() > past);
        assertThat(lock.writeLock().isHeldByCurrentThread()).isTrue();
        assertThat(lock.readLock().isHeldByCurrentThread()).isTrue();
        assertThat(events.lost).isEmpty();
        assertThat(events.renewed).extracting(LockEvent::lockType).contains("read", "write");
        lock.readLock().unlock();
        lock.writeLock().unlock();
        assertThat(events.acquired).extracting(LockEvent::lockType).containsExactly("write", "read");
        assertThat(lock.readLock().isLocked()).isFalse();
    }
}

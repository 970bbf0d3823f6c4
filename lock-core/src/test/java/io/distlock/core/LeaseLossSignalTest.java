package io.distlock.core;

import io.distlock.test.RedisExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A holder's loss signal ({@link RedisLock#whenLost}) and the check against Redis before an
 * irreversible step ({@link RedisLock#confirmHeld}), with real Redis: the lock taken away by
 * another client, its key deleted, Redis paused past the lease, an explicit lease running out.
 * Whether the lease had ended when the signal came is asked of Redis, not of the library.
 */
@Timeout(60)
class LeaseLossSignalTest {

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    @RegisterExtension
    final TestClients clients = new TestClients();

    private static final Duration SIGNAL_WITHIN = Duration.ofSeconds(20);

    private static LockLostException awaitSignal(CompletionStage<LockLostException> signal) throws Exception {
        return signal.toCompletableFuture().get(SIGNAL_WITHIN.toSeconds(), TimeUnit.SECONDS);
    }

    private static long pttl(String name) {
        return (Long) redis.server().command("PTTL", "distlock:{" + name + "}");
    }

    @Test
    void aLockForceReleasedByAnotherClientIsSignalledAtTheNextRenewal() throws Exception {
        RedisLock lock = clients.open(redis.server(), b -> b.watchdogTimeout(Duration.ofSeconds(1))).getLock("taken");
        lock.lock();
        CompletionStage<LockLostException> signal = lock.whenLost();
        assertThat(signal.toCompletableFuture()).isNotDone();

        assertThat(clients.open(redis.server()).getLock("taken").forceUnlock()).isTrue();

        assertThat(awaitSignal(signal)).hasMessageContaining("lock 'taken' was lost")
                .hasMessageContaining("no longer has the hold")
                .satisfies(lost -> assertThat(lost.getLockName()).isEqualTo("taken"));
        assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class);
    }

    @Test
    void aDeletedKeyIsSignalledAndEveryCallerOfTheSignalHearsIt() throws Exception {
        RedisLock lock = clients.open(redis.server(), b -> b.watchdogTimeout(Duration.ofSeconds(1))).getLock("deleted");
        lock.lock();
        CompletionStage<LockLostException> first = lock.whenLost();
        CompletionStage<LockLostException> second = lock.whenLost();

        redis.server().command("DEL", "distlock:{deleted}");

        assertThat(awaitSignal(first)).isInstanceOf(LockLostException.class);
        assertThat(awaitSignal(second)).isInstanceOf(LockLostException.class);
        assertThat(awaitSignal(lock.whenLost())).as("asked after the loss: complete at once")
                .isInstanceOf(LockLostException.class);
        assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class);
    }

    /**
     * Redis paused: renewals get no answer. The signal must come before the lease can have ended on
     * the server. Redis tells: resumed at once, the key must still be there, since every renewal
     * queued while paused runs after the time the lease got, and finds the key gone if it ended.
     */
    @Test
    void aPausedRedisIsSignalledBeforeTheLeaseCanEnd() throws Exception {
        Duration lease = Duration.ofSeconds(5);
        RedisLock lock = clients.open(redis.server(), b -> b.watchdogTimeout(lease)
                .commandTimeout(Duration.ofMillis(500))).getLock("paused");
        lock.lock();
        CompletionStage<LockLostException> signal = lock.whenLost();

        long pausedAt = System.nanoTime();
        redis.server().pause();
        LockLostException lost;
        long signalledAt;
        try {
            lost = awaitSignal(signal);
            signalledAt = System.nanoTime();
        } finally {
            redis.server().resume();
        }
        assertThat(pttl("paused")).as("Redis still had the lock when the holder was told").isPositive();
        assertThat(Duration.ofNanos(signalledAt - pausedAt)).as("before the last lease set before the pause ended")
                .isLessThan(lease);
        assertThat(lost).hasMessageContaining("may end within").hasMessageContaining("watchdog");
        lock.unlock();  // the renewals went on: still held, and released normally
        assertThat(pttl("paused")).isEqualTo(-2L);
    }

    @Test
    void anExplicitLeaseIsSignalledAFifthOfItBeforeItRunsOut() throws Exception {
        RedisLock lock = clients.open(redis.server()).getLock("explicit");
        long start = System.nanoTime();
        assertThat(lock.tryLock(0, 5, TimeUnit.SECONDS)).isTrue();

        LockLostException lost = awaitSignal(lock.whenLost());
        long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertThat(pttl("explicit")).as("Redis still has the lock when the holder is told").isPositive();
        assertThat(elapsed).as("a fifth of the 5 s lease before it ends, not earlier").isBetween(3_900L, 5_000L);
        assertThat(lost).hasMessageContaining("explicit lease of 5000 ms");
        lock.unlock();
    }

    /**
     * Two holds with signals: one released at once, one kept, with a lease twice as long. Once the
     * kept one's signal fired, the released one's would have, well before; it must not have.
     */
    @Test
    void aHoldReleasedNormallyIsNeverSignalled() throws Exception {
        LockClient client = clients.open(redis.server());
        RedisLock released = client.getLock("released");
        RedisLock kept = client.getLock("kept");
        assertThat(released.tryLockAsync(0, 500, TimeUnit.MILLISECONDS, "job-1").get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(kept.tryLockAsync(0, 1, TimeUnit.SECONDS, "job-2").get(10, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<LockLostException> releasedSignal = released.whenLost("job-1").toCompletableFuture();
        CompletionStage<LockLostException> keptSignal = kept.whenLost("job-2");
        released.unlockAsync("job-1").get(10, TimeUnit.SECONDS);

        awaitSignal(keptSignal);
        assertThat(releasedSignal).isNotDone();
        assertThatThrownBy(() -> released.whenLost("job-1")).isInstanceOf(IllegalMonitorStateException.class)
                .hasMessageContaining("is not held");
    }

    @Test
    void aCancelledSignalStopsListeningWhileOthersStillHear() throws Exception {
        RedisLock lock = clients.open(redis.server(), b -> b.watchdogTimeout(Duration.ofSeconds(1))).getLock("cancelled");
        lock.lock();
        CompletableFuture<LockLostException> mine = lock.whenLost().toCompletableFuture();
        CompletionStage<LockLostException> theirs = lock.whenLost();
        assertThat(mine.cancel(false)).isTrue();

        redis.server().command("DEL", "distlock:{cancelled}");
        assertThat(awaitSignal(theirs)).isInstanceOf(LockLostException.class);
        assertThat(mine).isCancelled();
        assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class);
    }

    @Test
    void aReEntryReleasedKeepsTheOuterHoldSignalled() throws Exception {
        RedisLock lock = clients.open(redis.server(), b -> b.watchdogTimeout(Duration.ofSeconds(1))).getLock("nested");
        lock.lock();
        lock.lock();
        CompletionStage<LockLostException> signal = lock.whenLost();
        lock.unlock();
        assertThat(signal.toCompletableFuture()).isNotDone();

        redis.server().command("DEL", "distlock:{nested}");
        assertThat(awaitSignal(signal)).isInstanceOf(LockLostException.class);
    }

    @Test
    void closingTheClientSignalsItsHolders() throws Exception {
        LockClient client = clients.open(redis.server());
        RedisLock lock = client.getLock("closed");
        lock.lock();
        CompletionStage<LockLostException> signal = lock.whenLost();
        client.close();
        assertThat(awaitSignal(signal)).hasMessageContaining("client was closed");
    }

    @Test
    void theSignalOfALockNotHeldIsRefused() {
        RedisLock lock = clients.open(redis.server()).getLock("never");
        assertThatThrownBy(lock::whenLost).isInstanceOf(IllegalMonitorStateException.class)
                .hasMessageContaining("Lock 'never' is not held by the current thread");
        assertThatThrownBy(() -> lock.whenLost(" ")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aMultiLockIsSignalledWhenAnyComponentIsLost() throws Exception {
        LockClient client = clients.open(redis.server(), b -> b.watchdogTimeout(Duration.ofSeconds(1)));
        MultiLock both = new MultiLock(client.getLock("multi-a"), client.getLock("multi-b"));
        both.lock();
        CompletionStage<LockLostException> signal = both.whenLost();

        redis.server().command("DEL", "distlock:{multi-b}");

        assertThat(awaitSignal(signal)).hasMessageContaining("multi[multi-a,multi-b]")
                .hasMessageContaining("lock 'multi-b' was lost");
        assertThatThrownBy(both::unlock).isInstanceOf(LockLostException.class);
    }

    @Test
    void confirmHeldAsksRedisForTheHoldAndItsLease() throws Exception {
        RedisLock lock = clients.open(redis.server()).getLock("confirmed");
        assertThat(lock.confirmHeld(Duration.ZERO)).as("not held").isFalse();
        assertThat(lock.tryLock(0, 10, TimeUnit.SECONDS)).isTrue();

        assertThat(lock.confirmHeld(Duration.ZERO)).isTrue();
        assertThat(lock.confirmHeld(Duration.ofSeconds(5))).isTrue();
        assertThat(lock.confirmHeld(Duration.ofSeconds(11))).as("more than the 10 s lease").isFalse();
        assertThat(lock.confirmHeld(ChronoUnit.FOREVER.getDuration())).as("more than any lease").isFalse();
        assertThat(CompletableFuture.supplyAsync(() -> lock.confirmHeld(Duration.ZERO)).get(10, TimeUnit.SECONDS))
                .as("another thread holds nothing").isFalse();

        redis.server().command("DEL", "distlock:{confirmed}");
        assertThat(lock.confirmHeld(Duration.ZERO)).as("asked of Redis, not of this client's books").isFalse();
        assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class);
    }

    @Test
    void confirmHeldAsyncAnswersForAnExplicitHolder() throws Exception {
        RedisLock lock = clients.open(redis.server()).getLock("confirmed-async");
        assertThat(lock.tryLockAsync(0, 0, TimeUnit.SECONDS, "job-1").get(10, TimeUnit.SECONDS)).isTrue();

        assertThat(lock.confirmHeldAsync("job-1", Duration.ofSeconds(15)).get(10, TimeUnit.SECONDS))
                .as("a watchdog lease has two thirds of its 30 s or more").isTrue();
        assertThat(lock.confirmHeldAsync("job-2", Duration.ZERO).get(10, TimeUnit.SECONDS)).isFalse();
        lock.unlockAsync("job-1").get(10, TimeUnit.SECONDS);
        assertThat(lock.confirmHeldAsync("job-1", Duration.ZERO).get(10, TimeUnit.SECONDS)).isFalse();
    }

    @Test
    void confirmHeldKnowsEachHalfOfAReadWriteLockAndAReaderOwnLease() throws Exception {
        LockClient client = clients.open(redis.server());
        RedisReadWriteLock rw = client.getReadWriteLock("confirmed-rw");
        assertThat(rw.readLock().tryLockAsync(0, 2, TimeUnit.SECONDS, "reader-1").get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(rw.readLock().tryLockAsync(0, 20, TimeUnit.SECONDS, "reader-2").get(10, TimeUnit.SECONDS)).isTrue();

        assertThat(rw.readLock().confirmHeld("reader-1", Duration.ofSeconds(1))).isTrue();
        assertThat(rw.readLock().confirmHeld("reader-1", Duration.ofSeconds(3)))
                .as("its own 2 s lease, although the lock lives 20 s for the other reader").isFalse();
        assertThat(rw.readLock().confirmHeld("reader-2", Duration.ofSeconds(15))).isTrue();
        assertThat(rw.writeLock().confirmHeld("reader-2", Duration.ZERO)).as("the other half").isFalse();

        rw.readLock().unlockAsync("reader-1").get(10, TimeUnit.SECONDS);
        rw.readLock().unlockAsync("reader-2").get(10, TimeUnit.SECONDS);
        assertThat(rw.writeLock().tryLock(0, 5, TimeUnit.SECONDS)).isTrue();
        assertThat(rw.writeLock().confirmHeld(Duration.ofSeconds(4))).isTrue();
        rw.writeLock().unlock();
    }

    @Test
    void confirmHeldRefusesAnImpossibleLease() {
        RedisLock lock = clients.open(redis.server()).getLock("bad");
        assertThatThrownBy(() -> lock.confirmHeld(Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("minLease must not be negative");
        assertThatThrownBy(() -> lock.confirmHeld(null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("minLease");
    }
}

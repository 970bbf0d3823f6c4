package io.distlock.core;

import io.distlock.test.RedisExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

@Timeout(30)
class ReentrantLockTest {

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    @RegisterExtension
    final TestClients clients = new TestClients();

    @Test
    void reentrantHoldsAreCountedAndReleasedOneByOne() throws Exception {
        RedisLock lock = clients.open(redis.server()).getLock("reentrant");

        lock.lock();
        assertThat(lock.tryLock(0, 0, TimeUnit.SECONDS)).isTrue();
        lock.lock();
        assertThat(lock.getHoldCount()).isEqualTo(3);
        assertThat(lock.isHeldByCurrentThread()).isTrue();

        lock.unlock();
        assertThat(lock.getHoldCount()).isEqualTo(2);
        lock.unlock();
        assertThat(lock.isLocked()).isTrue();
        lock.unlock();

        assertThat(lock.getHoldCount()).isZero();
        assertThat(lock.isLocked()).isFalse();
        assertThat(lock.remainingTimeToLive()).isEqualTo(-2);
    }

    @Test
    void lockUsesTheDocumentedRedisLayout() {
        LockClient client = clients.open(redis.server(), b -> b.keyPrefix("app:"));
        RedisLock lock = client.getLock("order:42");
        lock.lock();
        try {
            long threadId = Thread.currentThread().getId();
            assertThat(redis.server().command("HGET", "app:{order:42}", client.clientId() + ":" + threadId))
                    .isEqualTo("1");
            assertThat((Long) redis.server().command("PTTL", "app:{order:42}")).isPositive();
        } finally {
            lock.unlock();
        }
        assertThat(redis.server().command("EXISTS", "app:{order:42}")).isEqualTo(0L);
    }

    @Test
    void aNameBeyondAsciiIsItsUtf8BytesInRedis() {
        LockClient client = clients.open(redis.server(), b -> b.keyPrefix("app:"));
        RedisLock lock = client.getLock("zürich-€-日本-\uD83D\uDE00");
        lock.lock();
        try {
            assertThat(redis.server().command("EXISTS", "app:{zürich-€-日本-\uD83D\uDE00}")).isEqualTo(1L);
            assertThat(lock.isHeldByCurrentThread()).isTrue();
        } finally {
            lock.unlock();
        }
        assertThat(redis.server().command("EXISTS", "app:{zürich-€-日本-\uD83D\uDE00}")).isEqualTo(0L);
    }

    @Test
    void anotherThreadOfTheSameClientIsAnotherHolder() throws Exception {
        RedisLock lock = clients.open(redis.server()).getLock("threads");
        lock.lock();
        try {
            CompletableFuture<Boolean> other = CompletableFuture.supplyAsync(() -> {
                assertThat(lock.isHeldByCurrentThread()).isFalse();
                assertThat(lock.getHoldCount()).isZero();
                return lock.tryLock();
            });
            assertThat(other.get(10, TimeUnit.SECONDS)).isFalse();
        } finally {
            lock.unlock();
        }
    }

    @Test
    void unlockByANonHolderThrowsIllegalMonitorState() throws Exception {
        RedisLock lock = clients.open(redis.server()).getLock("non-owner");
        assertThatThrownBy(lock::unlock)
                .isInstanceOf(IllegalMonitorStateException.class)
                .hasMessageContaining("non-owner")
                .hasMessageContaining("not held");

        lock.lock();
        try {
            CompletableFuture<Throwable> other = CompletableFuture.supplyAsync(() -> {
                try {
                    lock.unlock();
                    return null;
                } catch (Throwable t) {
                    return t;
                }
            });
            assertThat(other.get(10, TimeUnit.SECONDS)).isInstanceOf(IllegalMonitorStateException.class);
            assertThat(lock.isHeldByCurrentThread()).isTrue();
        } finally {
            lock.unlock();
        }
    }

    @Test
    void eventsReportAcquireAndRelease() {
        RecordingListener events = new RecordingListener();
        RedisLock lock = clients.open(redis.server(), b -> b.listener(events)).getLock("events");

        lock.lock();
        lock.lock();
        lock.unlock();
        lock.unlock();

        assertThat(events.acquired).extracting(LockEvent::holdCount).containsExactly(1, 2);
        assertThat(events.acquired).allSatisfy(e -> {
            assertThat(e.lockName()).isEqualTo("events");
            assertThat(e.lockType()).isEqualTo("reentrant");
            assertThat(e.waited()).isFalse();
        });
        assertThat(events.released).extracting(LockEvent::holdCount).containsExactly(1, 0);
        assertThat(events.released.get(1).duration()).isPositive();
        assertThat(events.waiting).isEmpty();
        assertThat(events.failed).isEmpty();
    }

    @Test
    void eventsCarryTheGroupMetricsCountTheLockUnder() {
        RecordingListener events = new RecordingListener();
        LockClient client = clients.open(redis.server(), b -> b.listener(events));

        RedisLock derived = client.getLock("order:42:lines");
        derived.lock();
        derived.unlock();
        RedisLock explicit = client.getLock("OrderService.pay:42", "OrderService.pay");
        explicit.lock();
        explicit.unlock();
        RedisLock plain = client.getLock("nightly-report");
        plain.lock();
        plain.unlock();

        assertThat(events.acquired).extracting(LockEvent::lockName, LockEvent::group).containsExactly(
                tuple("order:42:lines", "order"),
                tuple("OrderService.pay:42", "OrderService.pay"),
                tuple("nightly-report", "nightly-report"));
        assertThat(events.released).extracting(LockEvent::group)
                .containsExactly("order", "OrderService.pay", "nightly-report");
    }

    @Test
    void isHeldByAnswersForAnyHolder() throws Exception {
        LockClient client = clients.open(redis.server());
        RedisLock lock = client.getLock("held-by");
        assertThat(lock.tryLockAsync(0, 0, TimeUnit.SECONDS, "job-7").get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(lock.isHeldBy("job-7")).isTrue();
        assertThat(lock.isHeldBy(client.currentHolderId())).isFalse();
        lock.unlockAsync("job-7").get(10, TimeUnit.SECONDS);
        assertThat(lock.isHeldBy("job-7")).isFalse();

        lock.lock();
        assertThat(lock.isHeldBy(client.currentHolderId())).isTrue();
        lock.unlock();
    }

    @Test
    void forceUnlockDeletesWhoeverHoldsIt() {
        LockClient client = clients.open(redis.server());
        RedisLock lock = client.getLock("force");
        lock.lock();
        assertThat(client.getLock("force").forceUnlock()).isTrue();
        assertThat(lock.isLocked()).isFalse();
        assertThat(client.getLock("force").forceUnlock()).isFalse();
        assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class);
    }

    @Test
    void scriptsAreReloadedAfterTheServerForgetsThem() {
        RedisLock lock = clients.open(redis.server()).getLock("noscript");
        lock.lock();
        lock.unlock();
        redis.server().command("SCRIPT", "FLUSH");

        lock.lock();
        assertThat(lock.isHeldByCurrentThread()).isTrue();
        lock.unlock();
        assertThat(lock.isLocked()).isFalse();
    }

    @Test
    void newConditionIsNotSupported() {
        RedisLock lock = clients.open(redis.server()).getLock("condition");
        assertThatThrownBy(lock::newCondition).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void manyLocksOfOneClientAreIndependent() {
        LockClient client = clients.open(redis.server());
        List<RedisLock> locks = List.of(client.getLock("a"), client.getLock("b"), client.getLock("c"));
        locks.forEach(RedisLock::lock);
        assertThat(locks).allSatisfy(l -> assertThat(l.isHeldByCurrentThread()).isTrue());
        locks.forEach(RedisLock::unlock);
        assertThat(locks).allSatisfy(l -> assertThat(l.isLocked()).isFalse());
    }

    /**
     * A lock held by another client is busy, also on a server that refuses writes (out of memory
     * with noeviction, or too few replicas): an attempt that finds it held writes nothing it needs.
     */
    @Test
    void aHeldLockIsBusyNotAnErrorOnAServerThatRefusesWrites() {
        RedisLock holder = clients.open(redis.server()).getLock("refusing");
        RedisLock other = clients.open(redis.server()).getLock("refusing");
        assertThat(holder.tryLock()).isTrue();
        redis.server().command("CONFIG", "SET", "maxmemory-policy", "noeviction");
        redis.server().command("CONFIG", "SET", "maxmemory", "1");
        try {
            assertThat(other.tryLock()).isFalse();
        } finally {
            redis.server().command("CONFIG", "SET", "maxmemory", "0");
        }
        holder.unlock();
    }
}

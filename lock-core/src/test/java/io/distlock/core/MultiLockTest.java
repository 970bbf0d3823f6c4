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

/** All or nothing over locks of two independent Redis servers. */
@Timeout(60)
class MultiLockTest {

    @RegisterExtension
    static RedisExtension redis = RedisExtension.nodes(2);

    @RegisterExtension
    final TestClients clients = new TestClients();

    private MultiLock multi(LockClient first, LockClient second, String... names) {
        return new MultiLock(first.getLock(names[0]), second.getLock(names[1]), first.getLock(names[2]));
    }

    @Test
    void locksEveryComponentAcrossServersAndReleasesThemAll() throws Exception {
        LockClient a = clients.open(redis.server(0));
        LockClient b = clients.open(redis.server(1));
        MultiLock all = multi(a, b, "x", "y", "z");

        assertThat(all.tryLock(1, TimeUnit.SECONDS)).isTrue();
        assertThat(all.isHeldByCurrentThread()).isTrue();
        assertThat(all.getHoldCount()).isEqualTo(1);
        assertThat(all.remainingTimeToLive()).isPositive();
        assertThat(redis.server(1).commandString("EXISTS", "distlock:{y}")).isEqualTo("1");
        all.unlock();
        assertThat(all.locks()).noneMatch(RedisLock::isLocked);
        assertThat(all.remainingTimeToLive()).isEqualTo(-2);
    }

    @Test
    void oneBusyComponentMeansNothingIsHeldAndTheWaitIsHonouredOnce() throws Exception {
        LockClient a = clients.open(redis.server(0));
        LockClient b = clients.open(redis.server(1));
        RedisLock busy = clients.open(redis.server(1)).getLock("y2");
        assertThat(CompletableFuture.supplyAsync(busy::tryLock).get(10, TimeUnit.SECONDS)).isTrue();
        MultiLock all = multi(a, b, "x2", "y2", "z2");

        long start = System.nanoTime();
        assertThat(all.tryLock(400, TimeUnit.MILLISECONDS)).isFalse();
        long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertThat(elapsed).isBetween(350L, 2_000L);
        assertThat(a.getLock("x2").isLocked()).as("the first component was given back").isFalse();
        assertThat(a.getLock("z2").isLocked()).isFalse();
        assertThat(all.tryLock()).isFalse();
        assertThat(a.getLock("x2").isLocked()).isFalse();
    }

    @Test
    void asyncHoldersAcquireAllOrNothingAndCancellingGivesEverythingBack() throws Exception {
        LockClient a = clients.open(redis.server(0));
        LockClient b = clients.open(redis.server(1));
        MultiLock all = multi(a, b, "x3", "y3", "z3");

        assertThat(all.tryLockAsync(0, 0, TimeUnit.SECONDS, "job-1").get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(all.isHeldBy("job-1")).isTrue();
        assertThat(all.tryLockAsync(100, 0, TimeUnit.MILLISECONDS, "job-2").get(10, TimeUnit.SECONDS)).isFalse();

        CompletableFuture<Boolean> waiting = all.tryLockAsync(30, 0, TimeUnit.SECONDS, "job-3");
        waiting.cancel(false);
        all.unlockAsync("job-1").get(10, TimeUnit.SECONDS);

        assertThat(all.tryLockAsync(5, 0, TimeUnit.SECONDS, "job-4").get(10, TimeUnit.SECONDS))
                .as("the cancelled acquisition left nothing behind").isTrue();
        assertThat(all.isHeldBy("job-3")).isFalse();
        all.unlockAsync("job-4").get(10, TimeUnit.SECONDS);
        for (String name : List.of("x3", "z3")) {
            assertThat(redis.server(0).commandString("EXISTS", "distlock:{" + name + "}")).isEqualTo("0");
        }
        assertThat(redis.server(1).commandString("EXISTS", "distlock:{y3}")).isEqualTo("0");
    }

    @Test
    void aMultiLockNeedsLocks() {
        assertThatThrownBy(() -> new MultiLock(List.of())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least one");
        assertThatThrownBy(() -> new MultiLock((RedisLock) null)).isInstanceOf(NullPointerException.class);
    }
}

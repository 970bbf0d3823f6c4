package io.distlock.core;

import io.distlock.test.RedisExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.distlock.test.Polling.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

/** {@link LockClient#locks()}: what this client holds and waits for, for operators. */
@Timeout(30)
class LocksSnapshotTest {

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    @RegisterExtension
    final TestClients clients = new TestClients();

    @Test
    void listsHeldAndAwaitedLocksWithTheirHoldersAndLeases() throws Exception {
        Instant before = Instant.now();
        LockClient client = clients.open(redis.server());
        RedisLock watched = client.getLock("snapshot-watched");
        watched.lock();
        RedisLock leased = client.getFairLock("snapshot-leased");
        assertThat(leased.tryLockAsync(0, 20, TimeUnit.SECONDS, "job-7").get(10, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<Boolean> waiter = watched.tryLockAsync(20, 0, TimeUnit.SECONDS, "waiter");
        awaitTrue("the waiter waits", Duration.ofSeconds(5), () -> client.locks().size() == 3);

        assertThat(client.locks()).satisfiesExactlyInAnyOrder(
                info -> {
                    assertThat(info).extracting(LockInfo::name, LockInfo::type, LockInfo::state, LockInfo::holderId,
                                    LockInfo::holdCount, LockInfo::watchdog)
                            .containsExactly("snapshot-watched", "reentrant", LockInfo.State.HELD,
                                    client.currentHolderId(), 1, true);
                    assertThat(info.remainingLease()).isPositive().isLessThanOrEqualTo(client.watchdogTimeout());
                    assertThat(info.since()).isBetween(before, Instant.now());
                },
                info -> {
                    assertThat(info).extracting(LockInfo::name, LockInfo::type, LockInfo::state, LockInfo::holderId,
                                    LockInfo::holdCount, LockInfo::watchdog)
                            .containsExactly("snapshot-leased", "fair", LockInfo.State.HELD, "job-7", 1, false);
                    assertThat(info.remainingLease()).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(20));
                },
                info -> assertThat(info).extracting(LockInfo::name, LockInfo::state, LockInfo::holderId,
                                LockInfo::holdCount, LockInfo::remainingLease)
                        .containsExactly("snapshot-watched", LockInfo.State.WAITING, "waiter", 0, null));

        watched.unlock();
        assertThat(waiter.get(10, TimeUnit.SECONDS)).isTrue();
        watched.unlockAsync("waiter").get(10, TimeUnit.SECONDS);
        leased.unlockAsync("job-7").get(10, TimeUnit.SECONDS);
        assertThat(client.locks()).isEmpty();
    }
}

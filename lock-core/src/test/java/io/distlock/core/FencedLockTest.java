package io.distlock.core;

import io.distlock.test.RedisExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.distlock.test.Polling.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(60)
class FencedLockTest {

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    @RegisterExtension
    final TestClients clients = new TestClients();

    @Test
    void tokensIncreaseStrictlyAcrossClientsAndReEntryKeepsTheToken() throws Exception {
        List<FencedLock> locks = List.of(clients.open(redis.server()).getFencedLock("ledger:1"),
                clients.open(redis.server()).getFencedLock("ledger:1"));
        List<Long> tokens = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            FencedLock lock = locks.get(i % 2);
            long token = lock.lockAndGetToken();
            assertThat(lock.tryLockAndGetToken(0, 0, TimeUnit.SECONDS)).as("re-entry").isEqualTo(token);
            assertThat(lock.getToken()).isEqualTo(token);
            lock.unlock();
            lock.unlock();
            tokens.add(token);
        }
        for (int i = 1; i < tokens.size(); i++) {
            assertThat(tokens.get(i)).isGreaterThan(tokens.get(i - 1));
        }
    }

    @Test
    void tokensKeepIncreasingAfterTheClientRestarts() {
        LockClient first = clients.open(redis.server());
        long before = first.getFencedLock("ledger:2").lockAndGetToken();
        first.getFencedLock("ledger:2").unlock();
        first.close();

        FencedLock restarted = clients.open(redis.server()).getFencedLock("ledger:2");
        assertThat(restarted.lockAndGetToken()).isGreaterThan(before);
        restarted.unlock();
    }

    /**
     * A thread that holds the plain lock of the name and then takes its fenced lock re-enters one
     * hold in Redis that took no token: it must get a token of its own, newer than every earlier
     * one, never the counter's current value, which is the last fenced holder's (maybe a stalled
     * holder still writing with it).
     */
    @Test
    void aFencedReentryIntoAnUnfencedHoldGetsATokenOfItsOwn() {
        FencedLock previous = clients.open(redis.server()).getFencedLock("ledger:5");
        List<Long> earlier = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            earlier.add(previous.lockAndGetToken());
            previous.unlock();
        }
        LockClient client = clients.open(redis.server());
        RedisLock plain = client.getLock("ledger:5");
        FencedLock fenced = client.getFencedLock("ledger:5");

        plain.lock();
        long token = fenced.lockAndGetToken();
        assertThat(token).as("a token of the hold's own").isGreaterThan(Collections.max(earlier));
        assertThat(fenced.lockAndGetToken()).as("its fenced re-entry keeps it").isEqualTo(token);
        fenced.unlock();
        fenced.unlock();
        plain.unlock();
        assertThat(plain.isLocked()).isFalse();

        assertThat(previous.lockAndGetToken()).as("the next hold's").isGreaterThan(token);
        previous.unlock();
    }

    @Test
    void asyncHoldersGetTokensToo() throws Exception {
        FencedLock lock = clients.open(redis.server()).getFencedLock("ledger:3");
        assertThat(lock.tryLockAsync(0, 0, TimeUnit.SECONDS, "job-1").get(10, TimeUnit.SECONDS)).isTrue();
        long token = lock.getToken("job-1");
        assertThat(token).isPositive();
        assertThatThrownBy(lock::getToken).isInstanceOf(IllegalMonitorStateException.class)
                .hasMessageContaining("current thread");
        lock.unlockAsync("job-1").get(10, TimeUnit.SECONDS);
        assertThatThrownBy(() -> lock.getToken("job-1")).isInstanceOf(IllegalMonitorStateException.class);
    }

    /**
     * The point of fencing: a holder whose lease ran out while it was stalled comes back and
     * writes with its old token; the storage, which has seen the newer holder's token, refuses it.
     */
    @Test
    void aStalledHolderIsStoppedByItsOldTokenAtTheStorage() throws Exception {
        RecordingListener events = new RecordingListener();
        FencedLock stalled = clients.open(redis.server(), b -> b.listener(events)).getFencedLock("ledger:4");
        FencedLock next = clients.open(redis.server()).getFencedLock("ledger:4");
        TokenCheckingStore store = new TokenCheckingStore(redis.server().uri(), "store:ledger");

        Long oldToken = stalled.tryLockAndGetToken(0, 300, TimeUnit.MILLISECONDS);
        assertThat(oldToken).isNotNull();
        assertThat(store.write("from the first holder", oldToken)).isTrue();
        // The first holder stalls; its lease runs out and the next holder takes over and writes.
        awaitTrue("the stalled holder's lease ended", Duration.ofSeconds(10), () -> !next.isLocked());
        long newToken = next.lockAndGetToken();
        assertThat(newToken).isGreaterThan(oldToken);
        assertThat(store.write("from the next holder", newToken)).isTrue();

        // The stalled holder resumes, believes it still holds the lock, and writes.
        assertThat(store.write("late write from the stalled holder", oldToken)).isFalse();
        assertThat(store.value()).isEqualTo("from the next holder");
        assertThatThrownBy(stalled::unlock).isInstanceOf(LockLostException.class);
        assertThat(events.lost).hasSize(1);
        assertThat(events.acquired).extracting(LockEvent::lockType).containsOnly("fenced");
        next.unlock();
    }
}

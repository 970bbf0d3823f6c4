package io.distlock.faults;

import io.distlock.core.FencedLock;
import io.distlock.core.TestClients;
import io.distlock.core.TokenCheckingStore;
import io.distlock.test.JavaProcess;
import io.distlock.test.RedisExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Pause: a holder process frozen with SIGSTOP for longer than its lease loses the lock to another
 * process; thawed with SIGCONT, it learns so (listener event, {@code distlock.lost},
 * {@code LockLostException} from {@code unlock()}), and the storage refuses its stale token.
 */
@Timeout(90)
class PausedHolderTest {

    private static final long LEASE_MS = 3_000;  // renewed every second: a JIT or GC pause in the fresh child JVM does not lose it

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    @RegisterExtension
    final TestClients clients = new TestClients();

    @Test
    void aHolderPausedPastItsLeaseLearnsItLostTheLockAndItsTokenIsRefused() throws Exception {
        TokenCheckingStore store = new TokenCheckingStore(redis.server().uri(), "paused:store");
        FencedLock lock = clients.open(redis.server()).getFencedLock("paused");
        try (JavaProcess holder = JavaProcess.start(PausedHolderMain.class, redis.server().uri(), "paused",
                Long.toString(LEASE_MS), "paused:store")) {
            Map<String, String> locked = ChildReport.parseText(holder.awaitLine("LOCKED", Duration.ofSeconds(30)));
            long oldToken = Long.parseLong(locked.get("token"));
            assertThat(locked.get("wrote")).isEqualTo("true");
            // While the child runs, its watchdog keeps the lock well past one lease.
            assertThat(lock.tryLock(2 * LEASE_MS, TimeUnit.MILLISECONDS)).isFalse();

            holder.pause();
            long pausedAt = System.nanoTime();
            Long newToken = lock.tryLockAndGetToken(10 * LEASE_MS, -1, TimeUnit.MILLISECONDS);
            long takeoverMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - pausedAt);
            assertThat(newToken).as("acquired while the holder is frozen").isNotNull();
            assertThat(newToken).isGreaterThan(oldToken);
            assertThat(takeoverMs).as("takeover after the frozen holder's lease").isLessThan(LEASE_MS + 3_000);
            assertThat(store.write("written by the next holder", newToken)).isTrue();

            holder.resume();
            holder.writeLine("REPORT");
            Map<String, String> report = ChildReport.parseText(holder.awaitLine("REPORT", Duration.ofSeconds(30)));
            assertThat(report).as("what the thawed holder learned; output:%n%s", holder.output())
                    .containsEntry("lostEvents", "1")
                    .containsEntry("lostMeter", "1")
                    .containsEntry("unlock", "LockLostException")
                    .containsEntry("lateWrite", "false");
            assertThat(store.value()).isEqualTo("written by the next holder");
            assertThat(holder.waitFor(Duration.ofSeconds(30))).isEqualTo(OptionalInt.of(0));

            assertThat(lock.isHeldByCurrentThread()).as("the next holder kept the lock throughout").isTrue();
            lock.unlock();
        }
    }
}

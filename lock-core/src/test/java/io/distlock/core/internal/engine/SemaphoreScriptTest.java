package io.distlock.core.internal.engine;

import io.distlock.core.LockException;
import io.distlock.test.RedisExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

import static io.distlock.test.Polling.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The semaphore scripts driven directly: the same call sent again counts once (Lettuce re-sends a
 * command after a reconnect), a permit count that disagrees changes nothing, and holders whose
 * lease ended give their permits back to the next acquisition.
 */
@Timeout(60)
class SemaphoreScriptTest {

    private static final long LEASE = 30_000;

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();
    @RegisterExtension
    final ScriptConnection connection = new ScriptConnection(redis);

    private final LockKeys keys = LockKeys.semaphore("distlock:", "sem");
    private SemaphoreProtocol twoPermits;

    @BeforeEach
    void connect() {
        twoPermits = connection.semaphore(2, new ReleaseAnswers(60_000));
    }

    @Test
    void anAcquisitionSentTwiceTakesOnePermit() {
        assertThat(acquire(twoPermits, "a", "a.1", LEASE, false)).isEqualTo(Attempt.acquired(1));
        assertThat(acquire(twoPermits, "a", "a.1", LEASE, false)).as("the same attempt again").isEqualTo(Attempt.acquired(1));
        assertThat(acquire(twoPermits, "b", "b.1", LEASE, false)).as("the second permit is still free")
                .isEqualTo(Attempt.acquired(1));
        Attempt third = acquire(twoPermits, "c", "c.1", LEASE, false);
        assertThat(third.acquired()).isFalse();
        assertThat(third.ttlMillis()).as("a waiter sleeps until the first lease ends at the latest")
                .isBetween(1L, LEASE);
        assertThat(twoPermits.permits(keys, 0).join()).containsExactly(2L, 2L);
    }

    @Test
    void aReleaseSentTwiceGivesBackOnePermit() {
        acquire(twoPermits, "a", "a.1", LEASE, false);
        acquire(twoPermits, "a", "a.2", LEASE, true);
        assertThat(twoPermits.release(keys, "a", "a.2").join()).isEqualTo(new ReleaseReply(ReleaseReply.Outcome.RELEASED, 1));
        assertThat(twoPermits.release(keys, "a", "a.2").join()).as("sent again")
                .isEqualTo(new ReleaseReply(ReleaseReply.Outcome.RELEASED_BEFORE, 1));
        assertThat(twoPermits.permits(keys, 0).join()).as("one permit still out").containsExactly(2L, 1L);
        assertThat(twoPermits.release(keys, "a", "a.1").join()).isEqualTo(new ReleaseReply(ReleaseReply.Outcome.RELEASED, 0));
        assertThat(redis.server().commandString("EXISTS", keys.lockKey(), keys.derived(SemaphoreProtocol.LEASES)))
                .as("the last permit takes the state with it").isEqualTo("0");
        assertThat(twoPermits.release(keys, "a", "a.1").join()).as("sent again after the state went")
                .isEqualTo(new ReleaseReply(ReleaseReply.Outcome.RELEASED_BEFORE, 0));
    }

    /** A holder taking one more permit needs a free one, and one whose permits are gone is told so. */
    @Test
    void aHolderTakingMorePermitsWaitsLikeAnyoneAndLearnsOfItsLoss() {
        acquire(twoPermits, "a", "a.1", LEASE, false);
        acquire(twoPermits, "b", "b.1", LEASE, false);
        assertThat(acquire(twoPermits, "a", "a.2", LEASE, true).acquired()).as("no permit free").isFalse();
        redis.server().command("DEL", keys.lockKey(), keys.derived(SemaphoreProtocol.LEASES));
        assertThat(acquire(twoPermits, "a", "a.3", LEASE, true).lost()).isTrue();
    }

    @Test
    void aClientWithAnotherPermitCountIsRefusedUntilTheCountIsChanged() {
        SemaphoreProtocol threePermits = connection.semaphore(3, new ReleaseAnswers(60_000));
        acquire(twoPermits, "a", "a.1", LEASE, false);
        assertThatThrownBy(() -> acquire(threePermits, "b", "b.1", LEASE, false))
                .isInstanceOf(CompletionException.class).cause().isInstanceOf(LockException.class)
                .hasMessageContaining("has 2 permits in Redis").hasMessageContaining("asked for it with 3")
                .hasMessageContaining("setPermits(3)");
        assertThat(redis.server().commandString("HEXISTS", keys.lockKey(), "b")).as("nothing taken").isEqualTo("0");

        assertThat(threePermits.permits(keys, 3).join()).as("the count before").containsExactly(2L, 1L);
        assertThat(acquire(threePermits, "b", "b.1", LEASE, false).acquired()).isTrue();
        assertThatThrownBy(() -> acquire(twoPermits, "c", "c.1", LEASE, false)).cause().isInstanceOf(LockException.class);
    }

    /** A crashed holder's permit is free once its lease ended, and its markers go with it. */
    @Test
    void anEndedLeaseFreesItsPermitsForTheNextAcquisition() {
        SemaphoreProtocol threePermits = connection.semaphore(3, new ReleaseAnswers(60_000));
        acquire(threePermits, "dead", "dead.1", 200, false);
        acquire(threePermits, "dead", "dead.2", 200, true);
        acquire(threePermits, "alive", "alive.1", LEASE, false);  // keeps the keys alive past the dead lease
        awaitTrue("the dead holder's lease ended", Duration.ofSeconds(10),
                () -> threePermits.permits(keys, 0).join().get(1) == 1L);
        assertThat(acquire(threePermits, "next", "next.1", LEASE, false).acquired()).isTrue();
        assertThat(acquire(threePermits, "next", "next.2", LEASE, true).acquired()).isTrue();
        assertThat(redis.server().commandString("HEXISTS", keys.lockKey(), "#dead.1")).isEqualTo("0");
        assertThat(redis.server().commandString("HGET", keys.lockKey(), "#used")).isEqualTo("3");
        assertThat(threePermits.release(keys, "dead", "dead.2").join().outcome())
                .as("the dead holder learns of its loss").isEqualTo(ReleaseReply.Outcome.NOT_HELD);
    }

    /**
     * Holder ids are any text: "3", ending while 3 permits of 3 are out, must not take the
     * semaphore's own fields with it (their values are the numbers 3).
     */
    @Test
    void aHolderWhoseIdIsANumberEndsWithoutTakingTheCountsWithIt() {
        SemaphoreProtocol threePermits = connection.semaphore(3, new ReleaseAnswers(60_000));
        acquire(threePermits, "1", "1.a", LEASE, false);
        acquire(threePermits, "2", "2.a", LEASE, false);
        acquire(threePermits, "3", "3.a", 200, false);
        awaitTrue("holder 3's lease ended", Duration.ofSeconds(10),
                () -> threePermits.permits(keys, 0).join().get(1) == 2L);
        assertThat(acquire(threePermits, "4", "4.a", LEASE, false).acquired()).isTrue();
        assertThat(acquire(threePermits, "5", "5.a", LEASE, false).acquired()).as("all 3 permits out").isFalse();
        assertThat(redis.server().commandString("HGET", keys.lockKey(), "#used")).isEqualTo("3");
        assertThat(threePermits.permits(keys, 0).join()).containsExactly(3L, 3L);
        assertThatThrownBy(() -> acquire(twoPermits, "5", "5.b", LEASE, false)).as("the count is still there")
                .cause().isInstanceOf(LockException.class);
    }

    @Test
    void theWatchdogRenewsAHoldersLeaseWhileItsPermitLastsAndNeverShortensIt() {
        Hold hold = new Hold(LockId.of("sem"), keys, "a", twoPermits, true, LEASE, System.nanoTime(), "a.1", 0, 0);
        acquire(twoPermits, "a", "a.1", 60_000, false);
        assertThat(twoPermits.renew(List.of(hold), List.of("a.1"), LEASE).join()).containsExactly(1L);
        assertThat(leaseLeft("a.1", "a")).as("not shortened to the watchdog's lease").isGreaterThan(LEASE);
        assertThat(twoPermits.renew(List.of(hold), List.of("a.gone"), LEASE).join()).as("a permit not there")
                .containsExactly(0L);
        assertThat(twoPermits.setLease(keys, new HoldRef("a", "a.1"), 1_000, true).join()).isTrue();
        assertThat(leaseLeft("a.1", "a")).as("an exact lease shortens it").isLessThanOrEqualTo(1_000);
        assertThat(twoPermits.renew(List.of(hold), List.of("a.1"), LEASE).join()).containsExactly(1L);
        assertThat(leaseLeft("a.1", "a")).isGreaterThan(1_000);
    }

    private long leaseLeft(String holdId, String holderId) {
        return twoPermits.leaseLeft(keys, new HoldRef(holderId, holdId)).join();
    }

    private Attempt acquire(SemaphoreProtocol protocol, String holderId, String holdId, long leaseMillis,
                            boolean reentry) {
        return protocol.tryAcquire(keys, holderId, leaseMillis, holdId, reentry).orTimeout(10, TimeUnit.SECONDS).join();
    }
}

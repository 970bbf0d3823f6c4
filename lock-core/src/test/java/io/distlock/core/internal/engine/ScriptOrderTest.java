package io.distlock.core.internal.engine;

import io.distlock.test.RedisExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the engine sends first on a connection runs first, even when Redis lost some of its cached
 * scripts (a restart, a failover, {@code SCRIPT FLUSH}): an {@code EVALSHA} answered
 * {@code NOSCRIPT} is sent again as {@code EVAL}, behind what was sent meanwhile, which runs before
 * it if its own script is still cached. Here the lock script is cached and the others are not, as
 * after a flush followed by one acquisition.
 */
@Timeout(30)
class ScriptOrderTest {

    private static final long LEASE = 30_000;

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();
    @RegisterExtension
    final ScriptConnection connection = new ScriptConnection(redis);

    private final LockKeys keys = LockKeys.of("distlock:", "ordered");
    private ReentrantProtocol protocol;

    @BeforeEach
    void connect() {
        protocol = connection.reentrant("order-test", new ReleaseAnswers(10_000));
    }

    /** An undo (or a release sent again) and the holder's next attempt right behind it. */
    @Test
    void aReleaseSentInOrderRunsBeforeTheHoldersNextAttempt() throws Exception {
        acquire("h", "undone");
        onlyTheLockScriptCached();

        CompletableFuture<ReleaseReply> undo = protocol.releaseInOrder(keys, "h", "undone");
        CompletableFuture<Attempt> next = protocol.tryAcquire(keys, "h", LEASE, "next", false);

        assertThat(next.get(5, TimeUnit.SECONDS).holdCount()).as("a first hold, not joined to the one undone")
                .isEqualTo(1);
        assertThat(undo.get(5, TimeUnit.SECONDS).outcome()).isEqualTo(ReleaseReply.Outcome.RELEASED);
    }

    /**
     * A watchdog renewal on its way when a composite lock gives the hold a shorter explicit lease
     * (the lease script cached, the renewal's not).
     */
    @Test
    void aRenewalRunsBeforeAShorterLeaseSetBehindIt() throws Exception {
        acquire("h", "composite");
        Hold hold = new Hold(LockId.of("ordered"), keys, "h", protocol, true, LEASE, System.nanoTime(), "composite", 0, 0);
        onlyTheLockScriptCached();
        assertThat(protocol.setLease(LockKeys.of("distlock:", "other"), new HoldRef("x", "none"), 2_000, true)
                .get(5, TimeUnit.SECONDS)).as("caches the lease script too").isFalse();

        CompletableFuture<List<Long>> renewal = protocol.renew(List.of(hold), List.of("composite"), LEASE);
        CompletableFuture<Boolean> lease = protocol.setLease(keys, new HoldRef("h", "composite"), 2_000, true);

        assertThat(renewal.get(5, TimeUnit.SECONDS)).containsExactly(1L);
        assertThat(lease.get(5, TimeUnit.SECONDS)).isTrue();
        assertThat((Long) redis.server().command("PTTL", keys.lockKey())).as("the shorter lease stands")
                .isBetween(1L, 2_000L);
    }

    private void acquire(String holderId, String holdId) throws Exception {
        assertThat(protocol.tryAcquire(keys, holderId, LEASE, holdId, false).get(5, TimeUnit.SECONDS).acquired())
                .isTrue();
    }

    /** Flushes every cached script, then caches the lock script alone, by an acquisition of another lock. */
    private void onlyTheLockScriptCached() throws Exception {
        redis.server().command("SCRIPT", "FLUSH");
        LockKeys other = LockKeys.of("distlock:", "other");
        assertThat(protocol.tryAcquire(other, "x", LEASE, "x1", false).get(5, TimeUnit.SECONDS).acquired()).isTrue();
    }
}

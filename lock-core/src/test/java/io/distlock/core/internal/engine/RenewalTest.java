package io.distlock.core.internal.engine;

import io.distlock.core.internal.scripts.ScriptExecutor;
import io.distlock.test.RedisExtension;
import io.lettuce.core.RedisClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A watchdog renewal renews the hold it was built for, by its hold id: a round that was already
 * on its way when that hold was released, and the same holder then took the lock with an explicit
 * lease, must not stretch that lease to the watchdog's (which holder ids alone could not tell).
 */
@Timeout(30)
class RenewalTest {

    private static final long WATCHDOG_LEASE = 30_000;
    private static final long EXPLICIT_LEASE = 2_000;
    private static final ReleaseAnswers ANSWER_KEPT = new ReleaseAnswers(10_000);

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    @Test
    void aRenewalOfAReleasedHoldLeavesTheNextHoldsLease() throws Exception {
        try (RedisConnections connections = RedisConnections.standalone(RedisClient.create(redis.server().uri()), true, Duration.ofSeconds(5))) {
            ScriptExecutor scripts = new ScriptExecutor(connections);
            LockKeys keys = LockKeys.of("distlock:", "stretch");
            for (LockProtocol protocol : List.of(new ReentrantProtocol("renewal-test", scripts, false, ANSWER_KEPT),
                    new ReadWriteProtocol(scripts, true, ANSWER_KEPT))) {
                String watchedId = protocol.type() + ".watched";
                String explicitId = protocol.type() + ".explicit";
                assertThat(acquire(protocol, keys, watchedId, WATCHDOG_LEASE).acquired()).isTrue();
                Hold watched = new Hold(LockId.of("stretch"), keys, "h", protocol, true, WATCHDOG_LEASE, System.nanoTime(), watchedId, 0,
                        0);
                assertThat(protocol.release(keys, "h", watchedId).get(5, TimeUnit.SECONDS).nothingLeft()).isTrue();
                assertThat(acquire(protocol, keys, explicitId, EXPLICIT_LEASE).acquired()).isTrue();

                List<Long> renewed = protocol.renew(List.of(watched), List.of(watchedId), WATCHDOG_LEASE)
                        .get(5, TimeUnit.SECONDS);

                assertThat(renewed).as(protocol.type()).containsExactly(0L);
                assertThat((Long) redis.server().command("PTTL", keys.lockKey())).as(protocol.type())
                        .isBetween(1L, EXPLICIT_LEASE);
                assertThat(protocol.release(keys, "h", explicitId).get(5, TimeUnit.SECONDS).nothingLeft()).isTrue();
            }
        }
    }

    private static Attempt acquire(LockProtocol protocol, LockKeys keys, String holdId, long leaseMillis)
            throws Exception {
        return protocol.tryAcquire(keys, "h", leaseMillis, holdId, false).get(5, TimeUnit.SECONDS);
    }
}

package io.distlock.core.internal.engine;

import io.distlock.core.internal.scripts.ScriptExecutor;
import io.distlock.test.RedisExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static io.distlock.test.Polling.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The yield of {@code unlock.lua} and {@code lock.lua} on the scripts themselves: a release that
 * yields keeps the lock for other clients only while a waiter of another client listens, never
 * lets two holders in, and ends by itself.
 */
@Timeout(30)
class YieldTest {

    private static final long LEASE = 30_000;
    private static final long YIELD_MILLIS = 2_000;

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    /** A lock of each test's own: a release's answer outlives the test (hold ids repeat across tests). */
    private final LockKeys keys = LockKeys.of("distlock:", "yield-" + UUID.randomUUID());
    private RedisClient client;
    private RedisConnections connections;
    private StatefulRedisConnection<String, String> admin;
    private ReentrantProtocol releasing;
    private ReentrantProtocol other;

    @BeforeEach
    void connect() {
        client = RedisClient.create(redis.server().uri());
        connections = RedisConnections.standalone(RedisClient.create(redis.server().uri()), true, Duration.ofSeconds(5));
        admin = client.connect();
        ScriptExecutor scripts = new ScriptExecutor(connections);
        releasing = new ReentrantProtocol("releasing-client", scripts, false, new ReleaseAnswers(10_000));
        other = new ReentrantProtocol("other-client", scripts, false, new ReleaseAnswers(10_000));
    }

    @AfterEach
    void close() {
        admin.sync().del(keys.lockKey());
        admin.close();
        connections.close();
        client.shutdown();
    }

    @Test
    void withAWaiterOfAnotherClientTheLockStaysFreeForOtherClientsOnly() throws Exception {
        try (StatefulRedisPubSubConnection<String, String> waiter = subscribe()) {
            acquire(releasing, "releasing-client:1", "h1");
            assertThat(attempt(other, "other-client:1", "o0").acquired()).as("the other client waits").isFalse();

            assertThat(releasing.releaseYielding(keys, "releasing-client:1", "h1", YIELD_MILLIS, false)
                    .get(5, TimeUnit.SECONDS)).isEqualTo(new ReleaseReply(ReleaseReply.Outcome.RELEASED, 0));

            Attempt again = attempt(releasing, "releasing-client:2", "h2");
            assertThat(again.acquired()).as("the yielding client's own holder").isFalse();
            assertThat(again.ttlMillis()).isBetween(1L, YIELD_MILLIS);
            Attempt taken = attempt(other, "other-client:1", "o1");
            assertThat(taken.acquired()).as("a holder of another client").isTrue();
            assertThat(taken.holdCount()).isEqualTo(1);
            assertThat(admin.sync().hgetall(keys.lockKey())).as("only the new holder's hold is left")
                    .containsOnlyKeys("other-client:1", "#o1", "#client");
            assertThat(admin.sync().pttl(keys.lockKey())).isGreaterThan(YIELD_MILLIS);
            assertThat(attempt(releasing, "releasing-client:2", "h3").acquired()).as("held now").isFalse();
        }
    }

    @Test
    void aYieldNobodyTakesEndsByItself() throws Exception {
        try (StatefulRedisPubSubConnection<String, String> waiter = subscribe()) {
            acquire(releasing, "releasing-client:1", "h1");
            assertThat(attempt(other, "other-client:1", "o0").acquired()).as("the other client waits").isFalse();
            releasing.releaseYielding(keys, "releasing-client:1", "h1", 200, false).get(5, TimeUnit.SECONDS);
            assertThat(admin.sync().exists(keys.lockKey())).isOne();

            awaitTrue("the yield expired", Duration.ofSeconds(5), () -> admin.sync().exists(keys.lockKey()) == 0);

            assertThat(attempt(releasing, "releasing-client:2", "h2").acquired()).isTrue();
        }
    }

    @Test
    void withoutWaitersOfOtherClientsTheReleaseJustFreesTheLock() throws Exception {
        acquire(releasing, "releasing-client:1", "h1");
        releasing.releaseYielding(keys, "releasing-client:1", "h1", YIELD_MILLIS, false).get(5, TimeUnit.SECONDS);
        assertThat(admin.sync().exists(keys.lockKey())).as("nobody listened").isZero();

        try (StatefulRedisPubSubConnection<String, String> own = subscribe()) {
            acquire(releasing, "releasing-client:1", "h2");
            releasing.releaseYielding(keys, "releasing-client:1", "h2", YIELD_MILLIS, true).get(5, TimeUnit.SECONDS);
            assertThat(admin.sync().exists(keys.lockKey())).as("the only listener was the releasing client's own")
                    .isZero();
        }
    }

    /**
     * A subscriber is no waiter unless its client asked for the lock: a monitor listening to every
     * channel, or a client whose wait ended and whose subscription lingers, must not make the
     * releasing client's own threads wait out a yield.
     */
    @Test
    void subscribersWhoseClientNeverAskedForTheLockGetNoYield() throws Exception {
        try (StatefulRedisPubSubConnection<String, String> lingering = subscribe();
             StatefulRedisPubSubConnection<String, String> monitor = client.connectPubSub()) {
            monitor.sync().psubscribe("distlock:*");
            acquire(releasing, "releasing-client:1", "h1");
            assertThat(attempt(releasing, "releasing-client:2", "h2").acquired())
                    .as("a thread of the releasing client asked").isFalse();

            releasing.releaseYielding(keys, "releasing-client:1", "h1", YIELD_MILLIS, false).get(5, TimeUnit.SECONDS);

            assertThat(admin.sync().exists(keys.lockKey())).as("freed, not yielded").isZero();
        }
    }

    @Test
    void aPlainReleaseNeverYields() throws Exception {
        try (StatefulRedisPubSubConnection<String, String> waiter = subscribe()) {
            acquire(releasing, "releasing-client:1", "h1");
            assertThat(releasing.release(keys, "releasing-client:1", "h1").get(5, TimeUnit.SECONDS))
                    .isEqualTo(new ReleaseReply(ReleaseReply.Outcome.RELEASED, 0));
            assertThat(admin.sync().exists(keys.lockKey())).isZero();
        }
    }

    /** @return a pub/sub connection listening on the lock's channel, as a waiting client's */
    private StatefulRedisPubSubConnection<String, String> subscribe() {
        StatefulRedisPubSubConnection<String, String> subscriber = client.connectPubSub();
        subscriber.sync().subscribe(keys.channel());
        return subscriber;
    }

    private void acquire(ReentrantProtocol protocol, String holderId, String holdId) throws Exception {
        assertThat(attempt(protocol, holderId, holdId).acquired()).as("%s acquires", holderId).isTrue();
    }

    private Attempt attempt(ReentrantProtocol protocol, String holderId, String holdId) throws Exception {
        return protocol.tryAcquire(keys, holderId, LEASE, holdId, false).get(5, TimeUnit.SECONDS);
    }
}

package io.distlock.core;

import io.distlock.test.RedisExtension;
import io.distlock.test.RedisServer;
import io.distlock.test.RedisServerOptions;
import io.distlock.test.RedisServers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.distlock.test.Polling.awaitTrue;
import static io.distlock.test.Polling.within;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A client built to start without Redis ({@code startWithoutRedis(true)}) while Redis is away:
 * its lock calls fail at once and say why, and once a real redis-server starts on that address,
 * locks, waits and wake-ups work without a new client. A Redis that refuses the client still fails
 * the build.
 */
@Timeout(90)
class StartWithoutRedisTest {

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    @RegisterExtension
    final TestClients clients = new TestClients();

    @AfterEach
    void redisRunsAgain() {
        redis.server().start();
    }

    @Test
    void lockCallsFailFastUntilRedisAnswersThenEverythingWorks() throws Exception {
        RedisServer server = redis.server();
        server.stop();
        LockClient client = clients.open(server, b -> b.startWithoutRedis(true));
        RedisLock lock = client.getLock("late:1");

        long start = System.nanoTime();
        assertThatThrownBy(() -> lock.tryLock(5, TimeUnit.SECONDS)).isInstanceOf(LockException.class)
                .hasMessageContaining("Not connected to Redis at redis://")
                .hasMessageContaining(":" + server.port());
        assertThatThrownBy(client::ping).isInstanceOf(LockException.class);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start))
                .as("no wait for an answer that cannot come").isLessThan(1_000);
        assertThat(client.locks()).isEmpty();

        for (int i = 0; i < 100; i++) {
            assertThatThrownBy(() -> lock.tryLock()).isInstanceOf(LockException.class);
        }

        server.start();
        ConnectionProbes.awaitConnected(client);
        // An attempt that failed for want of a connection sent nothing, so nothing is taken back
        // now: an undo of one would come within its first pauses (50 ms, growing to 1 s).
        assertThat(within(Duration.ofSeconds(3), () -> server.commandString("INFO", "commandstats")
                .contains("cmdstat_eval"))).as("undos of attempts never sent").isFalse();

        assertThat(lock.tryLock(10, TimeUnit.SECONDS)).isTrue();
        try {
            CompletableFuture<Boolean> waiter = client.getLock("late:1").tryLockAsync(20, 0, TimeUnit.SECONDS, "w");
            awaitTrue("the waiter waits", Duration.ofSeconds(10), () -> client.locks().size() == 2);
            lock.unlock();
            assertThat(waiter.get(10, TimeUnit.SECONDS)).as("woken by the release, over pub/sub").isTrue();
            client.getLock("late:1").unlockAsync("w").get(10, TimeUnit.SECONDS);
        } finally {
            if (lock.isHeldByCurrentThread()) {
                lock.unlock();
            }
        }
    }

    @Test
    void aRedisThatRefusesTheCredentialsStillFailsTheBuild() throws Exception {
        try (RedisServer guarded = RedisServers.start(RedisServerOptions.defaults().withPassword("right"))) {
            assertThatThrownBy(() -> LockClient.builder().redisUri("redis://:wrong@" + guarded.host() + ":"
                    + guarded.port()).startWithoutRedis(true).build())
                    .isInstanceOf(LockException.class).hasMessageContaining("refused the credentials");
        }
    }

    @Test
    void aDatabaseThatRedisDoesNotHaveStillFailsTheBuild() {
        RedisServer server = redis.server();
        assertThatThrownBy(() -> LockClient.builder().redisUri("redis://" + server.host() + ":" + server.port()
                + "/99").startWithoutRedis(true).build())
                .isInstanceOf(LockException.class).hasMessageContaining("refused to set up the connection")
                .hasMessageContaining("DB index");
    }
}

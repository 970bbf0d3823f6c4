package io.distlock.core;

import io.distlock.test.RedisExtension;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(30)
class BadInputTest {

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    @RegisterExtension
    final TestClients clients = new TestClients();

    @Test
    void lockNamesMustBePresentAndNotBlank() {
        LockClient client = clients.open(redis.server());
        assertThatThrownBy(() -> client.getLock(null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("name");
        assertThatThrownBy(() -> client.getLock(""))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("name");
        assertThatThrownBy(() -> client.getLock(" \t"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("blank");
        assertThatThrownBy(() -> client.getFairLock("}x"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must not start with '}'");
        assertThatThrownBy(() -> client.getLock("order:1", null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("lock group");
        assertThatThrownBy(() -> client.getLock("order:1", " "))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lock group must not be blank");
    }

    /** A holder id is a field of the lock hash, beside the fields the scripts keep there ('#...'). */
    @Test
    void explicitHolderIdsMustBePresentAndNotLookLikeTheLocksOwnFields() {
        RedisLock lock = clients.open(redis.server()).getLock("holders");
        assertThatThrownBy(() -> lock.tryLockAsync(0, 10, TimeUnit.SECONDS, null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("holderId");
        assertThatThrownBy(() -> lock.tryLockAsync(0, 10, TimeUnit.SECONDS, " "))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("holderId must not be blank");
        for (String reserved : new String[] {"#yield", "#kept", "#abc.1"}) {
            assertThatThrownBy(() -> lock.tryLockAsync(0, 10, TimeUnit.SECONDS, reserved))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must not start with '#'");
            assertThatThrownBy(() -> lock.unlockAsync(reserved))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must not start with '#'");
        }
        assertThat(lock.isLocked()).isFalse();
    }

    @Test
    void builderSettingsAreChecked() {
        assertInvalid(() -> LockClient.builder().keyPrefix("app:{x}:"), LockSetting.KEY_PREFIX,
                "Invalid keyPrefix: 'app:{x}:' contains '{' or '}'. Use a prefix without braces");
        assertThatThrownBy(() -> LockClient.builder().keyPrefix(null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("keyPrefix");
        assertInvalid(() -> LockClient.builder().watchdogTimeout(Duration.ofSeconds(-1)), LockSetting.WATCHDOG_TIMEOUT,
                "Invalid watchdogTimeout: '-1000ms' is shorter than 100ms. Set at least 100ms");
        assertInvalid(() -> LockClient.builder().watchdogTimeout(Duration.ofMillis(10)), LockSetting.WATCHDOG_TIMEOUT,
                "'10ms' is shorter than 100ms");
        assertInvalid(() -> LockClient.builder().commandTimeout(Duration.ZERO), LockSetting.COMMAND_TIMEOUT,
                "Invalid commandTimeout: '0ms' is not positive");
        assertInvalid(() -> LockClient.builder().fairSlotTimeout(Duration.ofSeconds(-5)), LockSetting.FAIR_SLOT_TIMEOUT,
                "Invalid fairSlotTimeout: '-5000ms' is not positive");
        assertInvalid(() -> LockClient.builder().replicaAcks(-1, Duration.ofSeconds(1)),
                LockSetting.REPLICA_ACKS_REPLICAS, "Invalid replicaAcks replicas: '-1' is negative");
        assertInvalid(() -> LockClient.builder().replicaAcks(1, Duration.ZERO), LockSetting.REPLICA_ACKS_TIMEOUT,
                "Invalid replicaAcks timeout: '0ms' is not positive");
        assertInvalid(() -> LockClient.builder().redisUri("redis://localhost:1").commandTimeout(Duration.ofSeconds(1))
                        .replicaAcks(1, Duration.ofSeconds(1)).build(), LockSetting.REPLICA_ACKS_TIMEOUT,
                "'1000ms' is not shorter than the command timeout (1000ms)");
        assertThatThrownBy(() -> LockClient.builder().redisUri((String) null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("redisUri");
        // A URI the parser rejects: its message would quote the password ("Malformed escape pair ...").
        assertThatThrownBy(() -> LockClient.builder().redisUri("redis://:hunter%zz@localhost:6379").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a valid Redis URI")
                .hasMessageNotContaining("hunter").hasNoCause();
        assertThatThrownBy(() -> LockClient.builder().listener(null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("listener");
    }

    /** A builder setting that fails with what it names, before anything connects. */
    private static void assertInvalid(ThrowingCallable call, LockSetting setting, String message) {
        assertThatThrownBy(call).isInstanceOfSatisfying(InvalidLockSettingException.class,
                e -> assertThat(e.getSetting()).isEqualTo(setting)).hasMessageContaining(message);
    }

    @Test
    void aTargetMustBeGivenExactlyOnce() {
        assertThatThrownBy(() -> LockClient.builder().build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("redisUri");
    }

    @Test
    void malformedUrisAreRejectedWithoutShowingThePassword() {
        assertThatThrownBy(() -> LockClient.builder().redisUri("localhost:6379").build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("redisUri")
                .hasMessageContaining("redis://");
        assertThatThrownBy(() -> LockClient.builder().redisUri("http://user:hunter2@localhost:6379").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageNotContaining("hunter2");
    }

    @Test
    void timeUnitsMustBeGiven() {
        RedisLock lock = clients.open(redis.server()).getLock("units");
        assertThatThrownBy(() -> lock.tryLock(1, null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("unit");
        assertThatThrownBy(() -> lock.lock(1, null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("unit");
        assertThatThrownBy(() -> lock.tryLockAsync(1, 1, null, "h"))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("unit");
    }

    @Test
    void asyncHoldersMustBePresentAndNotBlank() {
        RedisLock lock = clients.open(redis.server()).getLock("holders");
        assertThatThrownBy(() -> lock.tryLockAsync(0, 0, TimeUnit.SECONDS, null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("holderId");
        assertThatThrownBy(() -> lock.tryLockAsync(0, 0, TimeUnit.SECONDS, " "))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("holderId");
        assertThatThrownBy(() -> lock.unlockAsync(""))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("holderId");
    }

    @Test
    void templateDurationsAreChecked() {
        LockClient client = clients.open(redis.server());
        LockTemplate template = new LockTemplate(client);
        assertThatThrownBy(() -> template.execute("t", Duration.ofSeconds(-1), null, () -> 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("waitTime");
        assertThatThrownBy(() -> template.execute("t", null, Duration.ofMillis(-5), () -> 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("leaseTime");
        assertThatThrownBy(() -> template.execute("t", null, null, null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("action");
        assertThatThrownBy(() -> new LockTemplate(client, Duration.ofSeconds(-3)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("defaultWaitTime");
        assertThatThrownBy(() -> new LockTemplate(null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("client");
    }

    @Test
    void aClosedClientRefusesEveryLockOperationClearly() {
        LockClient closed = clients.open(redis.server());
        RedisLock kept = closed.getLock("kept");
        closed.close();
        assertThatThrownBy(() -> closed.getLock("late"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        assertThatThrownBy(kept::tryLock).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        assertThatThrownBy(kept::isLocked).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        assertThatThrownBy(kept::unlock).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    }
}

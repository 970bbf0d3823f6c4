package io.distlock.core.metrics;

import io.distlock.core.LockClient;
import io.distlock.core.RedisLock;
import io.distlock.core.TestClients;
import io.distlock.test.RedisExtension;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static io.distlock.test.Polling.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

/** A plain-Java client given a meter registry publishes the {@code distlock.*} meters, no Spring needed. */
@Timeout(60)
class LockMetricsTest {

    private static final Duration PATIENCE = Duration.ofSeconds(10);

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    @RegisterExtension
    final TestClients clients = new TestClients();

    @Test
    void aClientBuiltWithAMeterRegistryMeasuresItsLocksByGroup() throws Exception {
        MeterRegistry registry = new SimpleMeterRegistry();
        LockClient client = clients.open(redis.server(), b -> b.meterRegistry(registry));
        RedisLock lock = client.getLock("orders:42");
        lock.lock();
        awaitTrue("the hold is counted", PATIENCE, () -> gauge(registry, LockMeterNames.ACTIVE) == 1);
        assertThat(registry.get(LockMeterNames.WATCHDOG_LOCKS).gauge().value()).isEqualTo(1);
        lock.unlock();
        RedisLock busy = clients.open(redis.server()).getLock("orders:42");
        assertThat(busy.tryLock(0, 10, TimeUnit.SECONDS)).isTrue();
        assertThat(lock.tryLock(0, 10, TimeUnit.SECONDS)).as("no wait: busy").isFalse();
        assertThat(lock.tryLock(50, 10_000, TimeUnit.MILLISECONDS)).as("a wait that runs out: timeout").isFalse();
        busy.unlock();

        // Events reach listeners in order, on the client's event thread: the last one counted, all are.
        awaitTrue("the failed attempts are counted", PATIENCE, () -> acquire(registry, "timeout").count() == 1);
        assertThat(acquire(registry, "busy").count()).isEqualTo(1);
        assertThat(gauge(registry, LockMeterNames.ACTIVE)).isZero();
        assertThat(acquire(registry, "acquired").count()).isEqualTo(1);
        assertThat(registry.get(LockMeterNames.HELD).tags(LockMeterNames.NAME, "orders", LockMeterNames.TYPE,
                "reentrant", LockMeterNames.ERROR, "none").timer().count()).isEqualTo(1);
        assertThat(gauge(registry, LockMeterNames.WAITING)).isZero();
        assertThat(registry.getMeters()).extracting(meter -> meter.getId().getTag(LockMeterNames.NAME))
                .as("tagged by group, never by the full name").containsOnly("orders", null);
    }

    private static double gauge(MeterRegistry registry, String name) {
        return registry.get(name).tag(LockMeterNames.NAME, "orders").gauge().value();
    }

    private static Timer acquire(MeterRegistry registry, String result) {
        return registry.get(LockMeterNames.ACQUIRE).tags(LockMeterNames.NAME, "orders", LockMeterNames.TYPE,
                "reentrant", LockMeterNames.RESULT, result, LockMeterNames.ERROR, "none").timer();
    }
}

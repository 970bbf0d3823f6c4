package io.distlock.sample.race;

import io.distlock.sample.EmbeddedRedisFallback;
import io.distlock.sample.LocalPorts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The race across two JVMs, as {@code java -jar sample-app.jar race-two-instances} runs it: two
 * sample instances with nothing configured share the embedded Redis the first one starts (or the
 * Redis on localhost:6379, when one listens there) and one H2 database; afterwards nothing of
 * theirs is left running.
 */
@Timeout(180)
class TwoInstanceRaceTest {

    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(60);

    @Test
    // TwoInstances prints its progress on System.out, and closing it leaves the stream open.
    @SuppressWarnings("ClosingStandardOutputStreams")
    void theLockHoldsAcrossTwoJvmsWhileTheUnlockedTwinChargesTwice() throws Exception {
        RaceResult result;
        List<ProcessHandle> processes;
        URI redis;
        try (TwoInstances both = TwoInstances.start(Optional.empty(), STARTUP_TIMEOUT, System.out)) {
            processes = both.processes();
            redis = URI.create(both.redisUrl());
            assertThat(processes).hasSize(2).allMatch(ProcessHandle::isAlive);
            assertThat(both.urls()).doesNotHaveDuplicates();

            result = new Race().run(both.urls(), 4, 20);
        }

        System.out.print(result.table());
        assertThat(result.instances()).hasSize(2);
        RaceRound locked = result.withLock();
        assertThat(locked.requests()).isEqualTo(80);
        assertThat(locked.failed()).isZero();
        assertThat(locked.chargesPerOrder()).containsExactly(1, 1, 1, 1);
        assertThat(locked.doubleCharges()).isZero();
        assertThat(locked.everyOrderProcessedExactlyOnce()).isTrue();
        assertThat(result.withoutLock().doubleCharges()).as(result.table()).isPositive();
        assertThat(result.withoutLock().mostConcurrentCharges()).as("the semaphore both instances share")
                .isEqualTo(2);
        assertThat(locked.mostConcurrentCharges()).isBetween(1, 2);

        assertThat(processes).noneMatch(ProcessHandle::isAlive);
        if (redis.getPort() != EmbeddedRedisFallback.DEFAULT_REDIS_PORT) {
            assertThat(stopsListening(redis, Duration.ofSeconds(20))).as("the embedded Redis at " + redis + " stopped")
                    .isTrue();
        }
    }

    private static boolean stopsListening(URI redis, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (LocalPorts.listening(redis.getPort())) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(200);
        }
        return true;
    }
}

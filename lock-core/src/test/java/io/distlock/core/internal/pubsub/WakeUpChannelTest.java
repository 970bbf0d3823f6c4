package io.distlock.core.internal.pubsub;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Wake-ups that name a sleeper (a fair lock's turns): kept for a member between its sleeps, kept
 * for nobody else, and counted when they name an acquisition whose first look is on its way.
 */
@Timeout(10)
class WakeUpChannelTest {

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final WakeUpChannel<String> channel = new WakeUpChannel<>("ch", new AtomicBoolean(), Function.identity());

    @AfterEach
    void stop() {
        timer.shutdownNow();
    }

    @Test
    void aWakeUpForAMemberBetweenItsSleepsEndsItsNextSleep() throws Exception {
        channel.enter("a");
        channel.wake("a");
        assertThat(sleep("a", 2_000, channel.wakeUps()).get(1, TimeUnit.SECONDS)).isEqualTo(WakeUpChannel.Wake.RELEASED);
    }

    /** Kept for the member it names only: the looks of others on their way still sleep. */
    @Test
    void aWakeUpForAMemberEndsNobodyElsesSleep() throws Exception {
        channel.enter("a");
        channel.enter("b");
        long seen = channel.wakeUps();
        channel.wake("a");
        assertThat(sleep("b", 200, seen).get(1, TimeUnit.SECONDS)).as("slept its time out")
                .isEqualTo(WakeUpChannel.Wake.TIMED_OUT);
    }

    /**
     * The fair lock queued "a" and gave it its turn before the answer reached "a", which joins
     * the channel only then: its sleep after that look must not wait for the turn to run out.
     */
    @Test
    void aTurnThatComesBeforeItsAcquisitionJoinedEndsTheSleepAfterItsLook() throws Exception {
        long seen = channel.wakeUps();
        channel.wake("a");
        channel.enter("a");
        assertThat(sleep("a", 2_000, seen).get(1, TimeUnit.SECONDS)).isEqualTo(WakeUpChannel.Wake.RELEASED);
    }

    /** A wake-up that comes after its acquisition ended is not kept: ids never come back, so it would stay for ever. */
    @Test
    void aWakeUpForAnIdThatLeftIsNotKept() throws Exception {
        channel.enter("gone");
        channel.forget("gone");
        channel.wake("gone");
        channel.enter("gone");
        assertThat(sleep("gone", 200, channel.wakeUps()).get(1, TimeUnit.SECONDS)).as("slept its time out")
                .isEqualTo(WakeUpChannel.Wake.TIMED_OUT);
    }

    private CompletableFuture<WakeUpChannel.Wake> sleep(String id, long timeoutMillis, long seenWakeUps) {
        return channel.sleep(id, timeoutMillis, timer, seenWakeUps);
    }
}

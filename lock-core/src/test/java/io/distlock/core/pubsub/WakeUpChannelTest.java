package io.distlock.core.pubsub;

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

/** Wake-ups that name a sleeper (a fair lock's turns): kept for a member between its sleeps, never for a stranger. */
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
        assertThat(sleep("a").get(1, TimeUnit.SECONDS)).isEqualTo(WakeUpChannel.Wake.RELEASED);
    }

    /** A wake-up that comes after its acquisition ended is not kept: ids never come back, so it would stay for ever. */
    @Test
    void aWakeUpForAnIdThatLeftIsNotKept() throws Exception {
        channel.enter("gone");
        channel.forget("gone");
        channel.wake("gone");
        channel.enter("gone");
        assertThat(sleep("gone").get(1, TimeUnit.SECONDS)).as("slept its time out").isEqualTo(WakeUpChannel.Wake.TIMED_OUT);
    }

    private CompletableFuture<WakeUpChannel.Wake> sleep(String id) {
        return channel.sleep(id, 200, timer, channel.wakeUps());
    }
}

package io.distlock.core;

import io.distlock.test.RedisExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.distlock.test.Polling.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A busy client hands a lock between its own holders at most 16 times in a row; the release
 * after that must let a waiter of another client in. The releasing client's holders are one
 * round trip away from the free lock, the other client's waiter a release message and a round trip
 * away: without the yield, the busy client takes the lock straight back.
 */
@Timeout(60)
class CrossClientTurnTest {

    /** Holders of the busy client: one holds and 17 sleep, so one still sleeps after 16 hand-offs. */
    private static final int BUSY_HOLDERS = 18;
    private static final long WAIT_SECONDS = 30;

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    @RegisterExtension
    final TestClients clients = new TestClients();

    @Test
    void afterSixteenLocalHandOffsTheReleaseLetsAWaiterOfAnotherClientIn() throws Exception {
        RecordingListener busyEvents = new RecordingListener();
        RecordingListener otherEvents = new RecordingListener();
        RedisLock busy = clients.open(redis.server(), b -> b.listener(busyEvents)).getLock("turns");
        RedisLock other = clients.open(redis.server(), b -> b.listener(otherEvents)).getLock("turns");
        Map<String, CompletableFuture<Boolean>> holders = new LinkedHashMap<>();
        for (int i = 0; i < BUSY_HOLDERS; i++) {
            holders.put("busy-" + i, busy.tryLockAsync(WAIT_SECONDS, -1, TimeUnit.SECONDS, "busy-" + i));
            if (i == 0) {
                assertThat(holders.get("busy-0").get(5, TimeUnit.SECONDS)).isTrue();
            }
        }
        CompletableFuture<Boolean> otherClient = other.tryLockAsync(WAIT_SECONDS, -1, TimeUnit.SECONDS, "other");
        awaitTrue("every waiter sleeps", Duration.ofSeconds(10),
                () -> busyEvents.waiting.size() == BUSY_HOLDERS - 1 && otherEvents.waiting.size() == 1);
        letTimePass(Duration.ofMillis(300));

        // busy-0 got the lock from Redis; each release hands it to a sleeping holder of the same client.
        String holder = "busy-0";
        for (int handOffs = 1; handOffs <= 16; handOffs++) {
            busy.unlockAsync(holder).get(5, TimeUnit.SECONDS);
            holder = newHolder(holders, holder);
            assertThat(otherClient).as("the other client's waiter after %d hand-offs", handOffs).isNotDone();
        }

        busy.unlockAsync(holder).get(5, TimeUnit.SECONDS);
        holders.remove(holder);
        assertThat(busy.tryLockAsync(0, -1, TimeUnit.SECONDS, "busy-again").get(5, TimeUnit.SECONDS))
                .as("the busy client asking again at once, one round trip after its release").isFalse();

        assertThat(otherClient.get(5, TimeUnit.SECONDS)).as("the other client's waiter got its turn").isTrue();
        assertThat(holders).as("the busy client's last sleeper").hasSize(1);
        String lastBusy = holders.keySet().iterator().next();
        assertThat(holders.get(lastBusy)).as("the busy client's last sleeper").isNotDone();
        other.unlockAsync("other").get(5, TimeUnit.SECONDS);
        assertThat(holders.get(lastBusy).get(5, TimeUnit.SECONDS)).as("the busy client's turn again").isTrue();
        busy.unlockAsync(lastBusy).get(5, TimeUnit.SECONDS);
        assertThat(busy.isLocked()).isFalse();
    }

    /**
     * @param holders  the busy client's acquisitions not released yet, by holder
     * @param released the holder that just released; forgotten
     * @return the one holder whose acquisition completed: the one the lock was handed to
     */
    private static String newHolder(Map<String, CompletableFuture<Boolean>> holders, String released) {
        holders.remove(released);
        // Futures complete on the client's own threads, each in its own time: wait for the receiver's.
        awaitTrue("the lock was handed on after " + released, Duration.ofSeconds(5),
                () -> holders.values().stream().anyMatch(CompletableFuture::isDone));
        List<String> holding = holders.entrySet().stream().filter(entry -> entry.getValue().isDone())
                .map(Map.Entry::getKey).toList();
        assertThat(holding).as("holders of the busy client after %s released", released).hasSize(1);
        return holding.get(0);
    }

    private static void letTimePass(Duration quiet) {
        long until = System.nanoTime() + quiet.toNanos();
        awaitTrue(quiet.toMillis() + " ms passed", quiet.multipliedBy(3), () -> System.nanoTime() > until);
    }
}

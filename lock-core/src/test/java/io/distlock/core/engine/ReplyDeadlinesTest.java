package io.distlock.core.engine;

import io.netty.util.HashedWheelTimer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The time limit on Redis answers, on a wheel timer like Lettuce's (no Redis needed: the calls
 * here are futures completed by the test or never). Real releases cut off by it are in the fault
 * tests (paused Redis).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ReplyDeadlinesTest {

    private final HashedWheelTimer timer = new HashedWheelTimer(10, TimeUnit.MILLISECONDS);
    private final ReplyDeadlines deadlines = new ReplyDeadlines(timer);

    @AfterEach
    void stopTimer() {
        timer.stop();
    }

    @Test
    void aCallWithoutAnswerFailsWithATimeoutOnceItsLimitPassed() {
        CompletableFuture<String> call = new CompletableFuture<>();
        long start = System.nanoTime();

        deadlines.within(call, 200);

        assertThatThrownBy(() -> call.get(10, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(TimeoutException.class).hasMessageContaining("within 200 ms");
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isGreaterThanOrEqualTo(200);
    }

    @Test
    void anAnsweredCallKeepsItsAnswerAndLeavesNoDeadlineBehind() throws Exception {
        CompletableFuture<String> call = new CompletableFuture<>();

        deadlines.within(call, 100);
        assertThat(timer.pendingTimeouts()).isEqualTo(1);
        call.complete("released");

        // The cancelled deadline leaves the wheel on its next tick, and never fires.
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (timer.pendingTimeouts() > 0 && System.nanoTime() < until) {
            Thread.sleep(5);
        }
        assertThat(timer.pendingTimeouts()).isZero();
        assertThat(call.get()).isEqualTo("released");
    }

    @Test
    void aCallAnsweredAlreadyTakesNoDeadline() throws Exception {
        CompletableFuture<String> call = CompletableFuture.completedFuture("released");

        assertThat(deadlines.within(call, 100).get()).isEqualTo("released");
        assertThat(timer.pendingTimeouts()).isZero();
    }

    @Test
    void aStoppedTimerFailsTheCallAtOnceInsteadOfLeavingItUnbounded() {
        timer.stop();
        CompletableFuture<String> call = new CompletableFuture<>();

        deadlines.within(call, 60_000);

        assertThat(call).isCompletedExceptionally();
        assertThatThrownBy(call::join).cause().isInstanceOf(IllegalStateException.class);
    }
}

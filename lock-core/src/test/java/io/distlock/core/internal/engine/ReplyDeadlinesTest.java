package io.distlock.core.internal.engine;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The time limit on Redis answers (no Redis needed: the calls here are futures completed by the
 * test or never). Real releases cut off by it are in the fault tests (paused Redis).
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ReplyDeadlinesTest {

    private final ReplyDeadlines deadlines = new ReplyDeadlines("test-deadlines");

    @AfterEach
    void close() {
        deadlines.close();
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
        assertThat(deadlines.pending()).isEqualTo(1);
        call.complete("released");

        // The cancelled deadline leaves the wheel on its next tick, and never fires.
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (deadlines.pending() > 0 && System.nanoTime() < until) {
            Thread.sleep(5);
        }
        assertThat(deadlines.pending()).isZero();
        assertThat(call.get()).isEqualTo("released");
    }

    @Test
    void aCallAnsweredAlreadyTakesNoDeadline() throws Exception {
        CompletableFuture<String> call = CompletableFuture.completedFuture("released");

        assertThat(deadlines.within(call, 100).get()).isEqualTo("released");
        assertThat(deadlines.pending()).isZero();
    }

    /**
     * A wheel timer starts at its first deadline unless started before, and swallows the
     * interrupt of a caller that waits for its thread then: an {@code unlock()} called with the
     * interrupt status set lost it (RedLockTest caught it).
     */
    @Test
    void aCallerWithItsInterruptStatusSetKeepsIt() {
        Thread.currentThread().interrupt();
        try (ReplyDeadlines fresh = new ReplyDeadlines("test-interrupted")) {
            fresh.within(new CompletableFuture<String>(), 60_000);

            assertThat(Thread.currentThread().isInterrupted()).as("the interrupt status is kept").isTrue();
        } finally {
            Thread.interrupted();
        }
    }

    /** A stopped timer drops its deadlines: without this, an unlock() waiting then would wait for ever. */
    @Test
    void closingFailsTheCallsStillWaitingAndEveryLaterOneAtOnce() {
        CompletableFuture<String> waiting = new CompletableFuture<>();
        deadlines.within(waiting, 60_000);

        deadlines.close();
        CompletableFuture<String> later = new CompletableFuture<>();
        deadlines.within(later, 60_000);

        for (CompletableFuture<String> call : List.of(waiting, later)) {
            assertThat(call).isCompletedExceptionally();
            assertThatThrownBy(call::join).cause().isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("closed before Redis answered");
        }
    }
}

package io.distlock.core.internal.engine;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The arithmetic of waits: deadlines on a clock that may be negative or near its end, and what is left. */
class WaitTest {

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    @Test
    void aDeadlineIsCountedFromANegativeClockToo() {
        // System.nanoTime() has an arbitrary origin: it may be negative.
        assertThat(Wait.millis(5_000).deadlineNanos(-SECOND)).isEqualTo(4 * SECOND);
        assertThat(Wait.millis(5_000).deadlineNanos(Long.MIN_VALUE)).isEqualTo(Long.MIN_VALUE + 5 * SECOND);
    }

    @Test
    void aDeadlineBeyondTheClocksEndIsNever() {
        assertThat(Wait.millis(5_000).deadlineNanos(Long.MAX_VALUE - SECOND)).isEqualTo(Long.MAX_VALUE);
        assertThat(Wait.millis(Long.MAX_VALUE).deadlineNanos(SECOND)).isEqualTo(Long.MAX_VALUE);
        assertThat(Wait.forever().deadlineNanos(-SECOND)).isEqualTo(Long.MAX_VALUE);
        assertThat(Wait.millis(1_000).deadlineNanos(Long.MAX_VALUE - 2 * SECOND)).isEqualTo(Long.MAX_VALUE - SECOND);
    }

    @Test
    void whatIsLeftCountsDownToNoneAndForeverStaysForever() {
        assertThat(Wait.millis(6_000).left(-SECOND, 0).millis()).isEqualTo(5_000);
        assertThat(Wait.millis(6_000).left(Long.MAX_VALUE - 7 * SECOND, Long.MAX_VALUE - SECOND).isNone()).isTrue();
        assertThat(Wait.forever().left(-SECOND, Long.MAX_VALUE).isForever()).isTrue();
    }

    @Test
    void aMarginOnAHugeWaitIsNoLimit() {
        assertThat(Wait.millis(1_000).plus(2_000).millis()).isEqualTo(3_000);
        assertThat(Wait.millis(Long.MAX_VALUE).plus(2_000).isForever()).isTrue();
        assertThat(Wait.forever().plus(2_000).isForever()).isTrue();
    }

    @Test
    void aNegativeWaitIsOneTryAndForeverHasNoLength() {
        assertThat(Wait.of(-5, TimeUnit.SECONDS).isNone()).isTrue();
        assertThat(Wait.none().isNone()).isTrue();
        assertThat(Wait.forever().isNone()).isFalse();
        assertThatThrownBy(() -> Wait.forever().millis()).isInstanceOf(IllegalStateException.class);
    }
}

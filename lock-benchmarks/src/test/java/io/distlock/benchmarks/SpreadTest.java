package io.distlock.benchmarks;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** The median and range that summarise rounds. */
class SpreadTest {

    @Test
    void oddCountTakesTheMiddleValue() {
        assertThat(Spread.of(3.0, 1.0, 2.0)).isEqualTo(new Spread(2.0, 1.0, 3.0));
    }

    @Test
    void evenCountAveragesTheTwoMiddleValues() {
        assertThat(Spread.of(4.0, 1.0, 2.0, 10.0)).isEqualTo(new Spread(3.0, 1.0, 10.0));
    }

    @Test
    void oneValueIsItsOwnMedianAndRange() {
        assertThat(Spread.of(5.0)).isEqualTo(new Spread(5.0, 5.0, 5.0));
    }

    @Test
    void noValuesAreRejected() {
        assertThatIllegalArgumentException().isThrownBy(Spread::of);
    }
}

package io.distlock.benchmarks;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** Parsing of {@code --rounds}. */
class BenchmarkOptionsTest {

    @Test
    void threeRoundsByDefault() {
        assertThat(BenchmarkOptions.parse().rounds()).isEqualTo(3);
    }

    @Test
    void roundsAreParsed() {
        assertThat(BenchmarkOptions.parse("--rounds=5").rounds()).isEqualTo(5);
    }

    @Test
    void fewerThanOneRoundIsRejected() {
        assertThatIllegalArgumentException().isThrownBy(() -> BenchmarkOptions.parse("--rounds=0"))
                .withMessageContaining("--rounds");
    }
}

package io.distlock.sample.race;

import io.distlock.sample.LocalPorts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.URI;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What the race reports when it cannot run: {@code race-two-instances} prints these messages as
 * one-line errors, so they must be {@link IllegalStateException}s that name what failed.
 */
@Timeout(30)
class RaceTest {

    @Test
    void anInstanceThatCannotBeReachedIsNamed() {
        URI gone = URI.create("http://127.0.0.1:" + LocalPorts.free());
        assertThatThrownBy(() -> new Race().run(List.of(gone), 1, 1))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("POST " + gone.resolve("/orders/"))
                .hasMessageContaining("failed: java.net.ConnectException");
    }
}

package io.distlock.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIf;

/** Runs only where a Docker engine is reachable. */
@Timeout(300)
@EnabledIf("io.distlock.test.DockerAvailability#isAvailable")
class DockerModeTest {

    @Test
    void containerSupportsTheSameLifecycle() {
        try (RedisServer redis = RedisServers.start(RedisServerOptions.defaults().withMode(RedisMode.DOCKER))) {
            assertThat(redis.version()).startsWith("7.2");
            assertThat(redis.command("PING")).isEqualTo("PONG");
            int port = redis.port();
            redis.stop();
            assertThatThrownBy(() -> redis.command(Duration.ofSeconds(2), "PING")).isInstanceOf(UncheckedIOException.class);
            redis.start();
            assertThat(redis.port()).isEqualTo(port);
            redis.pause();
            assertThatThrownBy(() -> redis.command(Duration.ofMillis(300), "PING"))
                    .isInstanceOf(UncheckedIOException.class);
            redis.resume();
            redis.kill();
            redis.start();
            assertThat(redis.command("PING")).isEqualTo("PONG");
        }
    }
}

package io.distlock.test;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class EmbeddedModeTest {

    @Test
    void systemPropertySelectsTheEmbeddedBinary() {
        String previous = System.getProperty(RedisMode.PROPERTY);
        System.setProperty(RedisMode.PROPERTY, "embedded");
        try (RedisServer redis = RedisServers.start()) {
            assertThat(redis.version()).startsWith("6.2");
            assertThat(redis.commandString("INFO", "server")).contains("redis_version:6.2");
            assertThat(redis.command("PING")).isEqualTo("PONG");
            redis.kill();
            redis.start();
            assertThat(redis.command("PING")).isEqualTo("PONG");
        } finally {
            if (previous == null) {
                System.clearProperty(RedisMode.PROPERTY);
            } else {
                System.setProperty(RedisMode.PROPERTY, previous);
            }
        }
    }

    @Test
    void optionsCanSelectTheEmbeddedBinary() {
        try (RedisServer redis = RedisServers.start(RedisServerOptions.defaults().withMode(RedisMode.EMBEDDED))) {
            assertThat(redis.version()).startsWith("6.2");
            assertThat(RedisBinary.embedded().source()).isEqualTo(RedisBinary.Source.EMBEDDED_JAR);
            assertThat(RedisBinary.embedded().path().getFileName().toString()).startsWith("redis-server-6.2");
        }
    }
}

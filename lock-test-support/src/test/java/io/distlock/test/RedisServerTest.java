package io.distlock.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.UncheckedIOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class RedisServerTest {

    @Test
    void startsAndAnswersPing() {
        try (RedisServer redis = RedisServers.start()) {
            assertThat(redis.command("PING")).isEqualTo("PONG");
            assertThat(redis.isRunning()).isTrue();
            assertThat(redis.uri()).isEqualTo("redis://" + redis.host() + ":" + redis.port());
            assertThat(redis.version()).matches("\\d+\\.\\d+.*");
            assertThat(redis.commandString("INFO", "server")).contains("redis_version:" + redis.version());
        }
    }

    @Test
    void localProcessListensOnLoopback() {
        try (RedisServer redis = RedisServers.start()) {
            assumeTrue(redis.pid().isPresent(), "process mode only");
            assertThat(redis.host()).isEqualTo("127.0.0.1");
            assertThat(redis.uri()).isEqualTo("redis://127.0.0.1:" + redis.port());
            assertThat(RedisServers.describe(redis.options())).contains(redis.version());
        }
    }

    @Test
    void severalServersHaveDistinctPortsAndData() {
        List<RedisServer> servers = RedisServers.start(3);
        try {
            assertThat(servers.stream().map(RedisServer::port).collect(Collectors.toSet())).hasSize(3);
            servers.get(0).command("SET", "only-here", "1");
            assertThat(servers.get(0).command("EXISTS", "only-here")).isEqualTo(1L);
            assertThat(servers.get(1).command("EXISTS", "only-here")).isEqualTo(0L);
            assertThat(servers.get(2).command("PING")).isEqualTo("PONG");
        } finally {
            RedisServers.closeAll(servers);
        }
    }

    @Test
    void parsesEveryReplyType() {
        try (RedisServer redis = RedisServers.start()) {
            assertThat(redis.command("SET", "k", "v")).isEqualTo("OK");
            assertThat(redis.command("GET", "k")).isEqualTo("v");
            assertThat(redis.command("GET", "missing")).isNull();
            assertThat(redis.command("INCR", "n")).isEqualTo(1L);
            assertThat(redis.command("RPUSH", "list", "a", "b", "ü")).isEqualTo(3L);
            assertThat(redis.command("LRANGE", "list", "0", "-1")).isEqualTo(List.of("a", "b", "ü"));
            assertThat(redis.command("EVAL", "return {1, 'x', {2}}", "0")).isEqualTo(List.of(1L, "x", List.of(2L)));
            assertThatThrownBy(() -> redis.command("INCR", "k"))
                    .isInstanceOf(RedisReplyException.class)
                    .satisfies(e -> assertThat(((RedisReplyException) e).reply()).startsWith("ERR"));
            try (RespConnection connection = redis.connect(Duration.ofSeconds(5))) {
                connection.send("PING");
                connection.send("ECHO", "two");
                assertThat(connection.readReply()).isEqualTo("PONG");
                assertThat(connection.readReply()).isEqualTo("two");
            }
            redis.flushAll();
            assertThat(redis.command("DBSIZE")).isEqualTo(0L);
        }
    }

    @Test
    void stoppedServerFailsFastAndRestartsOnSamePort() {
        try (RedisServer redis = RedisServers.start()) {
            int port = redis.port();
            redis.command("SET", "k", "v");
            redis.stop();
            assertThat(redis.isRunning()).isFalse();
            long before = System.nanoTime();
            assertThatThrownBy(() -> redis.command("PING")).isInstanceOf(UncheckedIOException.class);
            assertThat(Duration.ofNanos(System.nanoTime() - before)).isLessThan(Duration.ofSeconds(3));
            redis.stop(); // no-op when already stopped
            redis.start();
            assertThat(redis.port()).isEqualTo(port);
            assertThat(redis.command("PING")).isEqualTo("PONG");
            assertThat(redis.command("GET", "k")).as("no persistence by default").isNull();
        }
    }

    @Test
    void killAndRestartRepeatedly() {
        try (RedisServer redis = RedisServers.start()) {
            int port = redis.port();
            for (int round = 0; round < 3; round++) {
                long pid = redis.pid().orElse(-1);
                redis.kill();
                assertThat(redis.isRunning()).isFalse();
                assertThatThrownBy(() -> redis.command("PING")).isInstanceOf(UncheckedIOException.class);
                if (pid > 0) {
                    assertThat(Polling.within(Duration.ofSeconds(5), () -> !ProcessPolling.processAlive(pid))).isTrue();
                }
                redis.start();
                assertThat(redis.port()).isEqualTo(port);
                assertThat(redis.command("PING")).isEqualTo("PONG");
            }
        }
    }

    @Test
    void pausedServerTimesOutAndResumes() {
        try (RedisServer redis = RedisServers.start()) {
            redis.pause();
            assertThat(redis.isPaused()).isTrue();
            assertThat(redis.isRunning()).isTrue();
            assertThatThrownBy(() -> redis.command(Duration.ofMillis(300), "PING"))
                    .isInstanceOf(UncheckedIOException.class)
                    .hasCauseInstanceOf(SocketTimeoutException.class);
            redis.resume();
            assertThat(redis.isPaused()).isFalse();
            assertThat(redis.command("PING")).isEqualTo("PONG");
        }
    }

    @Test
    void pausedServerCanBeStoppedAndKilled() {
        try (RedisServer redis = RedisServers.start()) {
            redis.pause();
            redis.stop();
            assertThat(redis.isRunning()).isFalse();
            redis.start();
            redis.pause();
            redis.kill();
            assertThat(redis.isRunning()).isFalse();
            redis.start();
            assertThat(redis.command("PING")).isEqualTo("PONG");
        }
    }

    @Test
    void passwordFromExtraArgsIsHonouredAcrossRestarts() {
        try (RedisServer redis = RedisServers.start(RedisServerOptions.defaults().withArgs("--requirepass", "secret"))) {
            assertThat(redis.password()).contains("secret");
            assertThat(redis.command("PING")).isEqualTo("PONG");
            try (RespConnection anonymous = RespConnection.open(redis.host(), redis.port(), Duration.ofSeconds(5))) {
                assertThatThrownBy(() -> anonymous.call("PING"))
                        .isInstanceOf(RedisReplyException.class)
                        .hasMessageContaining("NOAUTH");
            }
            redis.kill();
            redis.start();
            assertThat(redis.command("CONFIG", "GET", "requirepass")).isEqualTo(List.of("requirepass", "secret"));
        }
    }

    @Test
    void extraArgsAndDataDirectorySurviveRestart() {
        RedisServerOptions aof = RedisServerOptions.defaults().withArgs("--appendonly", "yes", "--appendfsync", "always");
        try (RedisServer redis = RedisServers.start(aof)) {
            redis.command("SET", "durable", "yes");
            redis.stop();
            redis.start();
            assertThat(redis.command("GET", "durable")).isEqualTo("yes");
        }
    }

    @Test
    void startupFailureShowsServerOutput() {
        RedisServerOptions bad = RedisServerOptions.defaults().withArgs("--no-such-directive", "x")
                .withStartupTimeout(Duration.ofSeconds(10));
        assertThatThrownBy(() -> RedisServers.start(bad))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no-such-directive");
    }

    @Test
    void closeEndsTheProcessForGood() {
        RedisServer redis = RedisServers.start();
        long pid = redis.pid().orElse(-1);
        redis.close();
        redis.close(); // idempotent
        assertThat(redis.isRunning()).isFalse();
        if (pid > 0) {
            assertThat(Polling.within(Duration.ofSeconds(10), () -> !ProcessPolling.processAlive(pid))).isTrue();
        }
        assertThatThrownBy(redis::start).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void pidIsTheRedisServerItself() {
        try (RedisServer redis = RedisServers.start()) {
            assumeTrue(redis.pid().isPresent(), "process mode only");
            long pid = redis.pid().getAsLong();
            Object info = redis.command("INFO", "server");
            assertThat(String.valueOf(info)).contains("process_id:" + pid);
        }
    }
}

package io.distlock.test;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

@Timeout(60)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RedisExtensionTest {

    @RegisterExtension
    static RedisExtension redis = RedisExtension.nodes(2);

    private static List<Integer> portsSeenFirst;

    @Test
    @Order(1)
    void leavesServersStoppedAndPaused() {
        portsSeenFirst = redis.servers().stream().map(RedisServer::port).collect(Collectors.toList());
        assertThat(redis.server()).isSameAs(redis.server(0));
        redis.server(0).command("SET", "leftover", "1");
        redis.server(0).kill();
        redis.server(1).pause();
    }

    @Test
    @Order(2)
    void nextTestGetsWorkingServersOnTheSamePorts() {
        assertThat(redis.servers()).hasSize(2);
        assertThat(redis.servers().stream().map(RedisServer::port).collect(Collectors.toList()))
                .isEqualTo(portsSeenFirst);
        for (RedisServer server : redis.servers()) {
            assertThat(server.isPaused()).isFalse();
            assertThat(server.command("PING")).isEqualTo("PONG");
        }
    }

    @Test
    @Order(3)
    void flushAllEmptiesEveryServer() {
        redis.server(0).command("SET", "a", "1");
        redis.server(1).command("SET", "b", "1");
        redis.flushAll();
        assertThat(redis.server(0).command("DBSIZE")).isEqualTo(0L);
        assertThat(redis.server(1).command("DBSIZE")).isEqualTo(0L);
    }

    @Nested
    class NestedTests {

        @Test
        void nestedClassSharesTheSameServers() {
            assertThat(redis.servers().stream().map(RedisServer::port).collect(Collectors.toList()))
                    .isEqualTo(portsSeenFirst);
            assertThat(redis.server(1).command("PING")).isEqualTo("PONG");
        }
    }
}

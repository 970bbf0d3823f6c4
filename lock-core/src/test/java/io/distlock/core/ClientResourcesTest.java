package io.distlock.core;

import io.distlock.test.RedisExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.event.connection.ConnectionActivatedEvent;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.Disposable;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static io.distlock.test.Polling.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Lettuce resources handed to the builder (an application's own, as Spring Boot defines them) carry
 * the client's connections and stay the application's when the client closes.
 */
@Timeout(30)
class ClientResourcesTest {

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    @RegisterExtension
    final TestClients clients = new TestClients();

    @Test
    void theClientConnectsThroughTheGivenResourcesAndLeavesThemRunning() throws Exception {
        ClientResources resources = DefaultClientResources.create();
        List<Integer> activatedPorts = new CopyOnWriteArrayList<>();
        Disposable listening = resources.eventBus().get()
                .ofType(ConnectionActivatedEvent.class)
                .subscribe(event -> activatedPorts.add(((InetSocketAddress) event.remoteAddress()).getPort()));
        try {
            LockClient client = clients.open(redis.server(), builder -> builder.clientResources(resources));
            RedisLock lock = client.getLock("shared-resources");
            assertThat(lock.tryLock(0, 10, TimeUnit.SECONDS)).isTrue();
            lock.unlock();

            awaitTrue("the command and pub/sub connections were opened through the resources", Duration.ofSeconds(5),
                    () -> activatedPorts.stream().filter(port -> port == redis.server().port()).count() >= 2);
            client.close();
            assertThat(resources.eventExecutorGroup().isShuttingDown()).as("still the application's").isFalse();
        } finally {
            listening.dispose();
            resources.shutdown(0, 2, TimeUnit.SECONDS).get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void resourcesCannotBeGivenWithAClientOfTheCallers() {
        ClientResources resources = DefaultClientResources.create();
        RedisClient own = RedisClient.create(resources, redis.server().uri());
        try {
            assertThatThrownBy(() -> LockClient.builder().redisClient(own).clientResources(resources).build())
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("clientResources(...)")
                    .hasMessageContaining("already has the resources");
        } finally {
            own.shutdown();
            resources.shutdown();
        }
    }
}

package io.distlock.spring.autoconfigure;

import io.distlock.core.LockClient;
import io.distlock.core.RedisLock;
import io.distlock.spring.BootGeneration;
import io.distlock.test.RedisExtension;
import io.lettuce.core.RedisCredentials;
import io.lettuce.core.RedisURI;
import io.lettuce.core.event.connection.ConnectionActivatedEvent;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The starter connects where Spring Boot's own Redis support connects: through Boot's
 * connection-details bean (what {@code @ServiceConnection} and Docker Compose register), with
 * Boot's Lettuce resources.
 */
@Timeout(60)
class BootConnectionTest {

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    /** Nothing listens here: a client that read {@code spring.data.redis.*} itself would fail. */
    private static final String UNUSED_PORT = "1";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DistLockAutoConfiguration.class))
            .withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + UNUSED_PORT);

    @Test
    void aConnectionDetailsBeanAloneDecidesWhereLocksGo() {
        runner.withBean(BootGeneration.redisConnectionDetailsType(), () -> serviceConnection()).run(context -> {
            assertThat(context).hasNotFailed();
            assertLocksGoToTheTestRedis(context.getBean(LockClient.class));
        });
    }

    @Test
    void bootsOwnRedisSettingsAreReadThroughItsConnectionDetails() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(BootGeneration.redisAutoConfiguration(),
                        DistLockAutoConfiguration.class))
                .withPropertyValues("spring.data.redis.url=redis://127.0.0.1:" + redis.server().port() + "/3")
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(BootGeneration.redisConnectionDetailsType());
                    RedisLock lock = context.getBean(LockClient.class).getLock("boot-settings");
                    lock.lock();
                    try {
                        assertThat(redis.server().commandString("EVAL",
                                "redis.call('SELECT', 3) return redis.call('EXISTS', KEYS[1])", "1",
                                "distlock:{boot-settings}")).as("held in database 3").isEqualTo("1");
                    } finally {
                        lock.unlock();
                    }
                });
    }

    @Test
    void theApplicationsLettuceResourcesCarryTheConnectionsAndOutliveTheClient() {
        ClientResources shared = DefaultClientResources.create();  // as Spring Boot's Redis auto-configuration defines them
        List<Integer> activatedPorts = new CopyOnWriteArrayList<>();
        shared.eventBus().get().ofType(ConnectionActivatedEvent.class).subscribe(event ->
                activatedPorts.add(((InetSocketAddress) event.remoteAddress()).getPort()));
        try {
            runner.withBean(BootGeneration.redisConnectionDetailsType(), () -> serviceConnection())
                    .withBean(ClientResources.class, () -> shared)
                    .run(context -> assertLocksGoToTheTestRedis(context.getBean(LockClient.class)));

            assertThat(activatedPorts).as("connections opened through the application's resources")
                    .contains(redis.server().port());
            assertThat(shared.eventExecutorGroup().isShuttingDown()).as("still the application's").isFalse();
        } finally {
            shared.shutdown();
        }
    }

    @Test
    void distlocksOwnConnectionWinsOverBoots() {
        runner.withBean(BootGeneration.redisConnectionDetailsType(),
                        () -> BootGeneration.standaloneRedis("127.0.0.1", Integer.parseInt(UNUSED_PORT)))
                .withPropertyValues("distlock.redis.url=" + redis.server().uri())
                .run(context -> assertLocksGoToTheTestRedis(context.getBean(LockClient.class)));
    }

    @Test
    void bootsSentinelSettingsKeepTheSentinelsCredentials() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(BootGeneration.redisAutoConfiguration(),
                        DistLockAutoConfiguration.class))
                // The application's own client: the starter's connection details are then never used to connect.
                .withBean(LockClient.class, () -> LockClient.builder().redisUri(redis.server().uri()).build(),
                        definition -> definition.setDestroyMethodName("close"))
                .withPropertyValues("spring.data.redis.sentinel.master=orders",
                        "spring.data.redis.sentinel.nodes=[::1]:26379,sentinel.example.com:26380",
                        "spring.data.redis.sentinel.username=watcher", "spring.data.redis.sentinel.password=s3cret",
                        "spring.data.redis.database=2")
                .run(context -> {
                    RedisURI uri = context.getBean(DistLockConnectionDetails.class).getRedisUris().get(0);

                    assertThat(uri.getSentinelMasterId()).isEqualTo("orders");
                    assertThat(uri.getDatabase()).isEqualTo(2);
                    assertThat(uri.getSentinels()).extracting(RedisURI::getHost, RedisURI::getPort)
                            .containsExactly(org.assertj.core.groups.Tuple.tuple("::1", 26379),
                                    org.assertj.core.groups.Tuple.tuple("sentinel.example.com", 26380));
                    assertThat(uri.getSentinels()).allSatisfy(sentinel -> {
                        RedisCredentials credentials = sentinel.getCredentialsProvider().resolveCredentials().block();
                        assertThat(credentials.getUsername()).isEqualTo("watcher");
                        assertThat(credentials.getPassword()).containsExactly("s3cret".toCharArray());
                    });
                });
    }

    @Test
    void anApplicationsOwnConnectionDetailsWinOverEverySetting() {
        runner.withBean(BootGeneration.redisConnectionDetailsType(),
                        () -> BootGeneration.standaloneRedis("127.0.0.1", Integer.parseInt(UNUSED_PORT)))
                .withPropertyValues("distlock.redis.url=redis://127.0.0.1:" + UNUSED_PORT)
                .withBean(DistLockConnectionDetails.class,
                        () -> () -> List.of(RedisURI.create(redis.server().uri())))
                .run(context -> assertLocksGoToTheTestRedis(context.getBean(LockClient.class)));
    }

    @Test
    void connectionDetailsOfSeveralUrisForOneRedisAreRefusedByName() {
        runner.withBean(DistLockConnectionDetails.class, () -> () -> List.of(RedisURI.create(redis.server().uri()),
                        RedisURI.create(redis.server().uri())))
                .run(context -> assertThat(context.getStartupFailure()).rootCause()
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("gives 2 Redis URIs for a Redis that is not a Cluster"));
    }

    @Test
    void tlsAskedForInBootsPropertiesIsUsedWithItsConnectionDetails() {
        // Boot's connection details carry an SSL bundle, but not a rediss:// URL's or ssl.enabled's TLS.
        ApplicationContextRunner withOwnClient = new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(BootGeneration.redisAutoConfiguration(),
                        DistLockAutoConfiguration.class))
                .withBean(LockClient.class, () -> LockClient.builder().redisUri(redis.server().uri()).build(),
                        definition -> definition.setDestroyMethodName("close"));
        withOwnClient.withPropertyValues("spring.data.redis.url=rediss://cache.example:6390")
                .run(context -> assertThat(context.getBean(DistLockConnectionDetails.class).getRedisUris())
                        .singleElement().satisfies(uri -> {
                            assertThat(uri.getHost()).isEqualTo("cache.example");
                            assertThat(uri.isSsl()).as("TLS, as the rediss:// URL asks").isTrue();
                        }));
        withOwnClient.withPropertyValues("spring.data.redis.host=cache.example", "spring.data.redis.ssl.enabled=true")
                .run(context -> assertThat(context.getBean(DistLockConnectionDetails.class).getRedisUris())
                        .singleElement().satisfies(uri -> assertThat(uri.isSsl()).as("TLS, as ssl.enabled asks").isTrue()));
    }

    private static void assertLocksGoToTheTestRedis(LockClient client) {
        RedisLock lock = client.getLock("details");
        lock.lock();
        try {
            assertThat(redis.server().commandString("EXISTS", "distlock:{details}")).isEqualTo("1");
        } finally {
            lock.unlock();
        }
    }

    /** What {@code @ServiceConnection} registers for a Redis container. */
    @SuppressWarnings("TypeParameterUnusedInFormals")  // as BootGeneration.standaloneRedis, whose result it is
    private static <T> T serviceConnection() {
        return BootGeneration.standaloneRedis(redis.server().host(), redis.server().port());
    }
}

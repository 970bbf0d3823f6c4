package io.distlock.spring.autoconfigure;

import io.distlock.core.LockClient;
import io.distlock.core.LockTemplate;
import io.distlock.spring.DistributedLock;
import io.distlock.spring.aop.DistributedLockAdvisor;
import io.distlock.spring.aop.LockAdviceSettings;
import io.distlock.spring.internal.BootRedisConnection;
import io.distlock.spring.internal.CancelledCalls;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SslOptions;
import io.lettuce.core.resource.ClientResources;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;

import java.util.List;

/**
 * Creates distlock's beans from {@code distlock.*}: the {@link DistLockConnectionDetails}, the
 * {@link LockClient} connected to them (closed on shutdown;
 * sharing Spring Boot's Lettuce {@code ClientResources} when the application has them),
 * a {@link LockTemplate} using the configured default wait and lease times, and the
 * {@link DistributedLock} advice. Each backs off when the application defines its own.
 * {@code distlock.enabled=false} turns it all off.
 */
@AutoConfiguration(after = SslAutoConfiguration.class, afterName = {
        // Spring Boot's Redis auto-configuration (4.x, then 3.5), which defines the connection
        // details read here and the Lettuce resources shared here.
        "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
        "org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration"})
@ConditionalOnProperty(prefix = "distlock", name = "enabled", havingValue = "true", matchIfMissing = true)
@EnableConfigurationProperties(DistLockProperties.class)
@Import(BootRedisConnectionAdapters.class)
public final class DistLockAutoConfiguration {

    /**
     * Where the lock client connects, unless the application says so itself: {@code distlock.redis.*}
     * if its connection is set; else the Redis of Spring Boot's connection-details bean, if Spring
     * Data Redis is on the classpath (Boot derives it from {@code spring.data.redis.*};
     * {@code @ServiceConnection} and Docker Compose replace it), with {@code distlock.redis.*}'s
     * credentials, database and SSL bundle winning when set; else {@code spring.data.redis.*} read
     * by this starter.
     *
     * @param properties  distlock's settings, checked first
     * @param environment for the {@code spring.data.redis.*} fallback
     * @param sslBundles  Spring Boot's SSL bundles, for {@code distlock.redis.ssl-bundle}
     * @param boot        Spring Boot's Redis connection details, as this generation's adapter read them
     * @return the connection details
     */
    @Bean
    @ConditionalOnMissingBean
    DistLockConnectionDetails distLockConnectionDetails(DistLockProperties properties, Environment environment,
                                                        ObjectProvider<SslBundles> sslBundles,
                                                        ObjectProvider<BootRedisConnection> boot) {
        BootRedisConnection bootConnection = properties.getRedis().isConfigured() ? null : boot.getIfUnique();
        return new SettingsConnectionDetails(() -> bootConnection == null
                ? RedisConnectionSettings.resolve(properties, environment)
                : RedisConnectionSettings.of(bootConnection, properties.getRedis(), environment),
                sslBundles.getIfAvailable(), bootConnection == null ? null : bootConnection.sslBundle());
    }

    /**
     * @param properties      distlock's settings
     * @param connection      where to connect
     * @param clientResources Spring Boot's Lettuce resources, shared when there are some
     * @param observations    the application's observation registry, if it has one (or a primary
     *                        one): acquisitions and holds are observed there
     * @param customizers     the application's adjustments of the builder, applied last
     * @return a connected client
     * @throws InvalidLockPropertyException naming a wrong setting
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    LockClient lockClient(DistLockProperties properties, DistLockConnectionDetails connection,
                          ObjectProvider<ClientResources> clientResources,
                          ObjectProvider<ObservationRegistry> observations,
                          ObjectProvider<LockClientBuilderCustomizer> customizers) {
        LockPropertiesValidator.validate(properties);
        LockClient.Builder builder = newBuilder(properties, clientResources, observations);
        connect(builder, connection);
        DistLockProperties.ReplicaAck ack = properties.getReplicaAck();
        if (ack.getReplicas() != 0) {
            LockSettingProperties.applying(() -> builder.replicaAcks(ack.getReplicas(), ack.getTimeout()));
        }
        customize(builder, customizers);
        return LockSettingProperties.applying(builder::build);
    }

    /** Points a builder at the Redis of the connection details. */
    private static void connect(LockClient.Builder builder, DistLockConnectionDetails connection) {
        SslOptions sslOptions = connection.getSslOptions();
        if (sslOptions != null) {
            builder.sslOptions(sslOptions);
        }
        List<RedisURI> uris = connection.getRedisUris();
        if (connection.isCluster()) {
            builder.clusterNodes(uris);
        } else if (uris.size() == 1) {
            builder.redisUri(uris.get(0));
        } else {
            throw new IllegalStateException(connection.getClass().getName() + " gives " + uris.size()
                    + " Redis URIs for a Redis that is not a Cluster: give exactly one (a Sentinel-managed master's "
                    + "URI names its Sentinels), or answer true to isCluster() for a Cluster's seed nodes.");
        }
    }

    /**
     * @param properties      {@code distlock.redlock.nodes}
     * @param sslBundles      Spring Boot's SSL bundles, for {@code distlock.redis.ssl-bundle}
     * @param clientResources Spring Boot's Lettuce resources, shared when there are some
     * @param observations    the application's observation registry, if it has one
     * @param customizers     the application's adjustments of each master's builder, applied last
     * @return one client per RedLock master (none when not configured), closed on shutdown
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    RedLockNodes redLockNodes(DistLockProperties properties, ObjectProvider<SslBundles> sslBundles,
                              ObjectProvider<ClientResources> clientResources,
                              ObjectProvider<ObservationRegistry> observations,
                              ObjectProvider<LockClientBuilderCustomizer> customizers) {
        return RedLockNodes.connect(properties, sslBundles.getIfAvailable(),
                () -> newBuilder(properties, clientResources, observations),
                builder -> customize(builder, customizers));
    }

    /** @return a client builder with the settings every lock client of the application shares */
    private static LockClient.Builder newBuilder(DistLockProperties properties,
                                                 ObjectProvider<ClientResources> clientResources,
                                                 ObjectProvider<ObservationRegistry> observations) {
        LockClient.Builder builder = LockSettingProperties.applying(() -> LockClient.builder()
                .keyPrefix(properties.getKeyPrefix())
                .watchdogTimeout(properties.getWatchdog().getTimeout())
                .commandTimeout(properties.getRedis().getTimeout())
                .startWithoutRedis(!properties.getRedis().isRequiredAtStartup()));
        clientResources.ifAvailable(builder::clientResources);
        observations.ifUnique(builder::observationRegistry);
        return builder;
    }

    /** Applies the application's customizers to a builder, in their order. */
    private static void customize(LockClient.Builder builder,
                                  ObjectProvider<LockClientBuilderCustomizer> customizers) {
        customizers.orderedStream().forEach(customizer -> customizer.customize(builder));
    }

    /**
     * @param client     the lock client
     * @param properties default wait and lease times
     * @return the template
     */
    @Bean
    @ConditionalOnMissingBean
    LockTemplate lockTemplate(LockClient client, DistLockProperties properties) {
        return new LockTemplate(client, properties.getWaitTime(), properties.getLeaseTime());
    }

    /**
     * The {@link DistributedLock} advice, applied by Spring's auto-proxying. It is created while
     * the application's post-processors are still being set up, so it depends on no ordinary
     * bean: it binds the {@code distlock.*} settings it needs itself, rather than taking the
     * properties bean (which would then miss the post-processors set up after it), and looks the
     * client up at the first call.
     *
     * @param environment {@code distlock.*} defaults and order; resolves {@code ${...}} in wait and lease times
     * @param beanFactory resolves {@code @bean} references in keys
     * @param client      the lock client, looked up at the first call
     * @param nodes       the RedLock masters, looked up at the first call
     * @param cancellations counts calls stopped for a lost lease ({@code distlock.cancelled}, with
     *                    Micrometer), looked up at the first call
     * @return the advisor
     */
    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    @ConditionalOnMissingBean(DistributedLockAdvisor.class)
    static DistributedLockAdvisor distributedLockAdvisor(Environment environment, BeanFactory beanFactory,
                                                  ObjectProvider<LockClient> client,
                                                  ObjectProvider<RedLockNodes> nodes,
                                                  ObjectProvider<CancelledCalls> cancellations) {
        DistLockProperties properties = Binder.get(environment).bindOrCreate(DistLockProperties.PREFIX,
                DistLockProperties.class);
        LockAdviceSettings settings = new LockAdviceSettings(properties.getWaitTime(), properties.getLeaseTime(),
                !properties.getRedlock().getNodes().isEmpty(), properties.getAspect().getOrder());
        return new DistributedLockAdvisor(settings, environment, beanFactory, client::getObject,
                () -> nodes.getObject().clients(), () -> cancellations.getIfAvailable(() -> CancelledCalls.NONE));
    }
}

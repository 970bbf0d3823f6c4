package io.distlock.spring;

import io.distlock.core.LockClient;
import io.distlock.core.LockTemplate;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;
import org.springframework.util.function.SingletonSupplier;

import java.util.function.Supplier;

/**
 * Creates distlock's beans from {@code distlock.*}: the {@link LockClient} (closed on shutdown),
 * a {@link LockTemplate} using the configured default wait and lease times, and the
 * {@link DistributedLock} advice. Each backs off when the application defines its own.
 * {@code distlock.enabled=false} turns it all off.
 */
@AutoConfiguration(after = SslAutoConfiguration.class)
@ConditionalOnProperty(prefix = "distlock", name = "enabled", havingValue = "true", matchIfMissing = true)
@EnableConfigurationProperties(DistLockProperties.class)
public class DistLockAutoConfiguration {

    /**
     * @param properties  distlock's settings, checked first
     * @param environment for the {@code spring.data.redis.*} fallback
     * @param sslBundles  Spring Boot's SSL bundles, for {@code distlock.redis.ssl-bundle}
     * @return a connected client
     * @throws InvalidLockPropertyException naming a wrong setting
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public LockClient lockClient(DistLockProperties properties, Environment environment,
                                 ObjectProvider<SslBundles> sslBundles) {
        LockPropertiesValidator.validate(properties);
        LockClient.Builder builder = RedisConnectionSettings.resolve(properties, environment)
                .applyTo(LockClient.builder(), sslBundles.getIfAvailable())
                .keyPrefix(properties.getKeyPrefix())
                .watchdogTimeout(properties.getWatchdog().getTimeout())
                .commandTimeout(properties.getRedis().getTimeout());
        DistLockProperties.ReplicaAck ack = properties.getReplicaAck();
        if (ack.getReplicas() > 0) {
            builder.replicaAcks(ack.getReplicas(), ack.getTimeout());
        }
        return builder.build();
    }

    /**
     * @param properties {@code distlock.redlock.nodes}
     * @param sslBundles Spring Boot's SSL bundles, for {@code distlock.redis.ssl-bundle}
     * @return one client per RedLock master (none when not configured), closed on shutdown
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public RedLockNodes redLockNodes(DistLockProperties properties, ObjectProvider<SslBundles> sslBundles) {
        return RedLockNodes.connect(properties, sslBundles.getIfAvailable());
    }

    /**
     * @param client     the lock client
     * @param properties default wait and lease times
     * @return the template
     */
    @Bean
    @ConditionalOnMissingBean
    public LockTemplate lockTemplate(LockClient client, DistLockProperties properties) {
        return new LockTemplate(client, properties.getWaitTime(), properties.getLeaseTime());
    }

    /**
     * The {@link DistributedLock} advice, applied by Spring's auto-proxying.
     *
     * @param properties  defaults and {@code distlock.aspect.order}
     * @param environment resolves {@code ${...}} in wait and lease times
     * @param beanFactory resolves {@code @bean} references in keys
     * @param client      the lock client, looked up at the first call
     * @param nodes       the RedLock masters, looked up at the first call
     * @return the advisor
     */
    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    @ConditionalOnMissingBean(DistributedLockAdvisor.class)
    static DistributedLockAdvisor distributedLockAdvisor(DistLockProperties properties, Environment environment,
                                                         BeanFactory beanFactory, ObjectProvider<LockClient> client,
                                                         ObjectProvider<RedLockNodes> nodes) {
        LockedMethods methods = new LockedMethods(environment, properties);
        Supplier<TypedLocks> locks = SingletonSupplier.of(() -> new TypedLocks(client.getObject(), nodes.getObject()));
        return new DistributedLockAdvisor(methods,
                new DistributedLockInterceptor(methods, new LockNameResolver(beanFactory), locks),
                properties.getAspect().getOrder());
    }
}

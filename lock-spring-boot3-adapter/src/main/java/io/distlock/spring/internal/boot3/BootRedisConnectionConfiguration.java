package io.distlock.spring.internal.boot3;

import io.distlock.spring.internal.BootRedisConnection;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.autoconfigure.data.redis.RedisConnectionDetails;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.util.List;

/**
 * Reads Spring Boot 3.5's Redis connection details ({@code RedisConnectionDetails}: from
 * {@code spring.data.redis.*}, {@code @ServiceConnection} or Docker Compose) for the lock client;
 * imported by {@code DistLockAutoConfiguration}, which runs after Boot's Redis auto-configuration.
 * On Spring Boot 4 the class condition leaves it out, and the auto-configuration's
 * {@code internal.boot4} twin of it applies.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(RedisConnectionDetails.class)
final class BootRedisConnectionConfiguration {

    /**
     * @param details Spring Boot's Redis connection details
     * @return what they say; Boot 3.5 gives the SSL bundle with the server, Sentinel or Cluster
     *         description, not with the details themselves
     */
    @Bean
    @ConditionalOnSingleCandidate(RedisConnectionDetails.class)
    BootRedisConnection distLockBootRedisConnection(RedisConnectionDetails details) {
        RedisConnectionDetails.Standalone standalone = details.getStandalone();
        RedisConnectionDetails.Sentinel sentinel = details.getSentinel();
        RedisConnectionDetails.Cluster cluster = details.getCluster();
        SslBundle sslBundle = cluster != null ? cluster.getSslBundle()
                : sentinel != null ? sentinel.getSslBundle()
                : standalone != null ? standalone.getSslBundle() : null;
        return new BootRedisConnection(RedisConnectionDetails.class.getSimpleName(),
                details.getUsername(), details.getPassword(),
                standalone == null ? null : new BootRedisConnection.Standalone(standalone.getHost(),
                        standalone.getPort(), standalone.getDatabase()),
                sentinel == null ? null : new BootRedisConnection.Sentinel(sentinel.getMaster(),
                        nodes(sentinel.getNodes()), sentinel.getUsername(), sentinel.getPassword(),
                        sentinel.getDatabase()),
                cluster == null ? List.of() : nodes(cluster.getNodes()),
                false, sslBundle);
    }

    private static List<String> nodes(List<RedisConnectionDetails.Node> nodes) {
        return nodes.stream().map(node -> BootRedisConnection.node(node.host(), node.port())).toList();
    }
}

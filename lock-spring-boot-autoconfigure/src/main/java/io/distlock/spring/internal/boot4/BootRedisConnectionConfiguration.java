package io.distlock.spring.internal.boot4;

import io.distlock.spring.internal.BootRedisConnection;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.util.List;

/**
 * Reads Spring Boot 4's Redis connection details ({@code DataRedisConnectionDetails}: from
 * {@code spring.data.redis.*}, {@code @ServiceConnection} or Docker Compose) for the lock client;
 * imported by {@code DistLockAutoConfiguration}, which runs after Boot's Redis auto-configuration.
 * On Spring Boot 3.5 the class condition leaves it out, and {@code lock-spring-boot3-adapter}'s
 * twin of it applies.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(DataRedisConnectionDetails.class)
final class BootRedisConnectionConfiguration {

    /**
     * @param details Spring Boot's Redis connection details
     * @return what they say
     */
    @Bean
    @ConditionalOnSingleCandidate(DataRedisConnectionDetails.class)
    BootRedisConnection distLockBootRedisConnection(DataRedisConnectionDetails details) {
        DataRedisConnectionDetails.Standalone standalone = details.getStandalone();
        DataRedisConnectionDetails.Sentinel sentinel = details.getSentinel();
        DataRedisConnectionDetails.Cluster cluster = details.getCluster();
        return new BootRedisConnection(DataRedisConnectionDetails.class.getSimpleName(),
                details.getUsername(), details.getPassword(),
                standalone == null ? null : new BootRedisConnection.Standalone(standalone.getHost(),
                        standalone.getPort(), standalone.getDatabase()),
                sentinel == null ? null : new BootRedisConnection.Sentinel(sentinel.getMaster(),
                        nodes(sentinel.getNodes()), sentinel.getUsername(), sentinel.getPassword(),
                        sentinel.getDatabase()),
                cluster == null ? List.of() : nodes(cluster.getNodes()),
                details.getMasterReplica() != null, details.getSslBundle());
    }

    private static List<String> nodes(List<DataRedisConnectionDetails.Node> nodes) {
        return nodes.stream().map(node -> BootRedisConnection.node(node.host(), node.port())).toList();
    }
}

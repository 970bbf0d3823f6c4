package io.distlock.spring.actuate;

import io.distlock.core.LockClient;
import io.distlock.spring.autoconfigure.DistLockAutoConfiguration;
import io.distlock.spring.autoconfigure.DistLockProperties;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Adds the {@link DistLockEndpoint} ({@code distlock}) when Spring Boot's actuator is on the
 * classpath and the endpoint is available (exposed, and not switched off).
 */
@AutoConfiguration(after = DistLockAutoConfiguration.class)
@ConditionalOnClass(name = "org.springframework.boot.actuate.endpoint.annotation.Endpoint")
@ConditionalOnBean(LockClient.class)
@ConditionalOnAvailableEndpoint(DistLockEndpoint.class)
public final class DistLockEndpointAutoConfiguration {

    /**
     * @param client     the lock client
     * @param properties its settings
     * @return the endpoint
     */
    @Bean
    @ConditionalOnMissingBean
    DistLockEndpoint distLockEndpoint(LockClient client, DistLockProperties properties) {
        return new DistLockEndpoint(client, properties);
    }
}

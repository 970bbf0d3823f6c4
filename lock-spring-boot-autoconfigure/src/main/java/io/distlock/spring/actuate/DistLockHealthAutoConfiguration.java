package io.distlock.spring.actuate;

import io.distlock.core.LockClient;
import io.distlock.spring.autoconfigure.DistLockAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * Adds {@link DistLockHealthIndicator} (health contributor {@code distlock}) when Spring Boot's
 * health support is on the classpath; {@code management.health.distlock.enabled=false} turns it off.
 */
@AutoConfiguration(after = DistLockAutoConfiguration.class)
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBean(LockClient.class)
@ConditionalOnEnabledHealthIndicator("distlock")
public final class DistLockHealthAutoConfiguration {

    /**
     * @param client the lock client
     * @return the health indicator
     */
    @Bean
    @ConditionalOnMissingBean(name = "distlockHealthIndicator")
    DistLockHealthIndicator distlockHealthIndicator(LockClient client) {
        return new DistLockHealthIndicator(client);
    }
}

package io.distlock.spring.actuate.boot3;

import io.distlock.core.LockClient;
import io.distlock.spring.autoconfigure.DistLockAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Adds the health contributor {@code distlock} on Spring Boot 3.5, where the health API lives in
 * {@code org.springframework.boot.actuate.health} (on Boot 4,
 * {@link io.distlock.spring.actuate.DistLockHealthAutoConfiguration} does).
 * {@code management.health.distlock.enabled=false} turns it off. Its classes are compiled against
 * Spring Boot 3.5; on Boot 4 the class condition leaves them unloaded.
 */
@AutoConfiguration(after = DistLockAutoConfiguration.class)
@ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
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

package io.distlock.spring.actuate;

import io.distlock.core.LockClient;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Actuator health of distlock on Spring Boot 4: UP when Redis answers a {@code PING} within the
 * command timeout, with {@link DistLockHealthDetails}; DOWN with the reason otherwise. (On Spring
 * Boot 3.5, {@code io.distlock.spring.actuate.boot3.DistLockHealthIndicator} is its twin.)
 */
public class DistLockHealthIndicator extends AbstractHealthIndicator {

    private final LockClient client;

    /**
     * @param client the application's lock client
     */
    public DistLockHealthIndicator(LockClient client) {
        super("distlock health check failed");
        this.client = client;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        builder.up().withDetails(DistLockHealthDetails.of(client));
    }
}

package io.distlock.spring.actuate;

import io.distlock.core.LockClient;
import io.distlock.spring.internal.DistLockHealthCheck;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Actuator health of distlock on Spring Boot 4 ({@link DistLockHealthCheck}): UP when Redis
 * answers a {@code PING} within the command timeout, DOWN with the reason otherwise, logged once
 * per change of state. (On Spring Boot 3.5, {@code io.distlock.spring.actuate.boot3.DistLockHealthIndicator}
 * is its twin.)
 */
public class DistLockHealthIndicator implements HealthIndicator {

    private final DistLockHealthCheck check;

    /**
     * @param client the application's lock client
     */
    public DistLockHealthIndicator(LockClient client) {
        this.check = new DistLockHealthCheck(client);
    }

    @Override
    public Health health() {
        DistLockHealthCheck.Outcome outcome = check.check();
        return (outcome.up() ? Health.up() : Health.down()).withDetails(outcome.details()).build();
    }
}

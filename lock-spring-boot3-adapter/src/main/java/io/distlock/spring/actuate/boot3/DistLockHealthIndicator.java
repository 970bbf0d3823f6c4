package io.distlock.spring.actuate.boot3;

import io.distlock.core.LockClient;
import io.distlock.spring.internal.DistLockHealthCheck;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/**
 * Actuator health of distlock on Spring Boot 3.5, whose health API predates Boot 4's
 * ({@link DistLockHealthCheck}): UP when Redis answers a {@code PING} within the command timeout,
 * DOWN with the reason otherwise, logged once per change of state.
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

package io.distlock.spring.actuate.boot3;

import io.distlock.core.LockClient;
import io.distlock.spring.actuate.DistLockHealthDetails;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/**
 * Actuator health of distlock on Spring Boot 3.5, whose health API predates Boot 4's: UP when
 * Redis answers a {@code PING} within the command timeout, with {@link DistLockHealthDetails};
 * DOWN with the reason otherwise.
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

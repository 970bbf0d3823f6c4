package io.distlock.spring.actuate;

import io.distlock.core.LockClient;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * Actuator health of distlock: UP when Redis answers a {@code PING} within the command timeout
 * (with the round trip, the key prefix, and how many leases the watchdog renews), DOWN with the
 * reason otherwise. Never shows credentials.
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
        long roundTripMicros = client.ping().toNanos() / 1_000;
        builder.up()
                .withDetail("pingMicros", roundTripMicros)
                .withDetail("keyPrefix", client.keyPrefix())
                .withDetail("watchdogLeases", client.watchdogHoldCount())
                .withDetail("waitingLocks", client.activeSubscriptions());
    }
}

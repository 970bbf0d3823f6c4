package io.distlock.spring.actuate;

import io.distlock.core.LockClient;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The details of distlock's health, whichever generation of Spring Boot's health API shows them:
 * the {@code PING} round trip, the key prefix, how many leases the watchdog renews and how many
 * locks are being waited for. Never credentials. Public only so that the Spring Boot 3.5 indicator
 * ({@code io.distlock.spring.actuate.boot3}) can share it: not an API for applications.
 */
public final class DistLockHealthDetails {

    private DistLockHealthDetails() {
    }

    /**
     * @param client the application's lock client
     * @return the details, in a stable order
     * @throws RuntimeException if Redis does not answer the {@code PING} within the command timeout
     */
    public static Map<String, Object> of(LockClient client) {
        long roundTripMicros = client.ping().toNanos() / 1_000;
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("pingMicros", roundTripMicros);
        details.put("keyPrefix", client.keyPrefix());
        details.put("watchdogLeases", client.watchdogHoldCount());
        details.put("waitingLocks", client.activeSubscriptions());
        return details;
    }
}

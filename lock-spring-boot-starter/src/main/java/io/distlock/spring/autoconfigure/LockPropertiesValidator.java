package io.distlock.spring.autoconfigure;

import io.distlock.core.LockClient;

import java.time.Duration;

/**
 * Checks {@link DistLockProperties} before anything connects, so a wrong setting fails startup
 * with the property's name instead of surfacing later as an odd lock failure.
 */
final class LockPropertiesValidator {

    private LockPropertiesValidator() {
    }

    /**
     * @param properties the bound settings
     * @throws InvalidLockPropertyException naming the first wrong setting
     */
    static void validate(DistLockProperties properties) {
        String prefix = properties.getKeyPrefix();
        if (prefix == null || prefix.indexOf('{') >= 0 || prefix.indexOf('}') >= 0) {
            throw new InvalidLockPropertyException("distlock.key-prefix", "'" + prefix + "' contains '{' or '}'"
                    + (prefix == null ? " or is empty" : ""),
                    "Use a prefix without braces, e.g. 'distlock:' (the lock name is the Redis hash tag).");
        }
        notNegative("distlock.wait-time", properties.getWaitTime());
        if (properties.getLeaseTime() != null) {
            notNegative("distlock.lease-time", properties.getLeaseTime());
        }
        Duration watchdog = properties.getWatchdog().getTimeout();
        if (watchdog == null || watchdog.compareTo(LockClient.MIN_WATCHDOG_TIMEOUT) < 0) {
            throw new InvalidLockPropertyException("distlock.watchdog.timeout", "'" + watchdog + "' is too short",
                    "Set at least " + LockClient.MIN_WATCHDOG_TIMEOUT.toMillis() + "ms; the default is 30s.");
        }
        Duration timeout = properties.getRedis().getTimeout();
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new InvalidLockPropertyException("distlock.redis.timeout", "'" + timeout + "' is not positive",
                    "Set how long to wait for one Redis answer, e.g. 5s.");
        }
        int maxNames = properties.getMetrics().getMaxNames();
        if (maxNames < 1) {
            throw new InvalidLockPropertyException("distlock.metrics.max-names", "'" + maxNames + "' is not positive",
                    "Set how many distinct lock names the distlock.* meters may have, e.g. 100 (the default).");
        }
        DistLockProperties.ReplicaAck ack = properties.getReplicaAck();
        if (ack.getReplicas() < 0) {
            throw new InvalidLockPropertyException("distlock.replica-ack.replicas", "'" + ack.getReplicas()
                    + "' is negative", "Use 0 to turn replica acknowledgements off, or the number of replicas.");
        }
        if (ack.getReplicas() > 0 && (ack.getTimeout() == null || ack.getTimeout().isNegative()
                || ack.getTimeout().isZero() || ack.getTimeout().compareTo(timeout) >= 0)) {
            throw new InvalidLockPropertyException("distlock.replica-ack.timeout", "'" + ack.getTimeout()
                    + "' is not between zero and distlock.redis.timeout (" + timeout + ")",
                    "Use a short positive duration such as 500ms, below distlock.redis.timeout.");
        }
        Integer database = properties.getRedis().getDatabase();
        if (database != null && database < 0) {
            throw new InvalidLockPropertyException("distlock.redis.database", "'" + database + "' is negative",
                    "Use a database index of 0 or more.");
        }
    }

    private static void notNegative(String property, Duration value) {
        if (value == null || value.isNegative()) {
            throw new InvalidLockPropertyException(property, "'" + value + "' is negative or empty",
                    "Use a duration of zero or more, e.g. 500ms or 3s.");
        }
    }
}

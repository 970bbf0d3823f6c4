package io.distlock.spring.autoconfigure;

import org.jspecify.annotations.Nullable;

import java.time.Duration;

/**
 * Checks the {@link DistLockProperties} that are not {@code LockClient} builder settings before
 * anything connects, so a wrong setting fails startup with the property's name instead of
 * surfacing later as an odd lock failure. The builder checks its own settings
 * ({@link LockSettingProperties}).
 */
final class LockPropertiesValidator {

    private LockPropertiesValidator() {
    }

    /**
     * @param properties the bound settings
     * @throws InvalidLockPropertyException naming the first wrong setting
     */
    static void validate(DistLockProperties properties) {
        notNegative("distlock.wait-time", properties.getWaitTime());
        if (properties.getLeaseTime() != null) {
            notNegative("distlock.lease-time", properties.getLeaseTime());
        }
        int maxNames = properties.getMetrics().getMaxNames();
        if (maxNames < 1) {
            throw new InvalidLockPropertyException("distlock.metrics.max-names", "'" + maxNames + "' is not positive",
                    "Set how many distinct lock names the distlock.* meters may have, e.g. 100 (the default).");
        }
        Integer database = properties.getRedis().getDatabase();
        if (database != null && database < 0) {
            throw new InvalidLockPropertyException("distlock.redis.database", "'" + database + "' is negative",
                    "Use a database index of 0 or more.");
        }
    }

    private static void notNegative(String property, @Nullable Duration value) {
        if (value == null || value.isNegative()) {
            throw new InvalidLockPropertyException(property, "'" + value + "' is negative or empty",
                    "Use a duration of zero or more, e.g. 500ms or 3s.");
        }
    }
}

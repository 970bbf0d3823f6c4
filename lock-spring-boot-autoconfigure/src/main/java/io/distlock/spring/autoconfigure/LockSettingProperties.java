package io.distlock.spring.autoconfigure;

import io.distlock.core.InvalidLockSettingException;
import io.distlock.core.LockClient;
import io.distlock.core.LockSetting;

import java.util.Optional;
import java.util.function.Supplier;

/**
 * The {@code distlock.*} properties that are {@link LockClient.Builder} settings. The builder
 * checks their values; a value it rejects is reported here under the property it came from, so
 * startup fails naming what to change, with the builder's reason and fix.
 */
final class LockSettingProperties {

    private LockSettingProperties() {
    }

    /**
     * @param setting a builder setting
     * @return the property it is read from; empty for a setting only code sets (a
     *         {@code LockClientBuilderCustomizer})
     */
    static Optional<String> propertyOf(LockSetting setting) {
        return switch (setting) {
            case KEY_PREFIX -> Optional.of("distlock.key-prefix");
            case WATCHDOG_TIMEOUT -> Optional.of("distlock.watchdog.timeout");
            case COMMAND_TIMEOUT -> Optional.of("distlock.redis.timeout");
            case REPLICA_ACKS_REPLICAS -> Optional.of("distlock.replica-ack.replicas");
            case REPLICA_ACKS_TIMEOUT -> Optional.of("distlock.replica-ack.timeout");
            case FAIR_SLOT_TIMEOUT -> Optional.empty();
        };
    }

    /**
     * Runs a step that hands properties to a builder, or builds it.
     *
     * @param step the step
     * @param <T>  what it returns
     * @return what it returned
     * @throws InvalidLockPropertyException if the builder rejected the value of a property
     */
    static <T> T applying(Supplier<T> step) {
        try {
            return step.get();
        } catch (InvalidLockSettingException e) {
            Optional<String> property = propertyOf(e.getSetting());
            if (property.isEmpty()) {
                throw e;
            }
            throw new InvalidLockPropertyException(property.get(), e.getProblem(), e.getAction());
        }
    }
}

package io.distlock.core;

/**
 * The settings of {@link LockClient.Builder} whose values it checks, as an
 * {@link InvalidLockSettingException} names them. Code that fills a builder from its own
 * configuration (the Spring Boot starter from {@code distlock.*}) maps these to its own names
 * instead of repeating the checks.
 */
public enum LockSetting {

    /** {@link LockClient.Builder#keyPrefix(String)} */
    KEY_PREFIX("keyPrefix"),
    /** {@link LockClient.Builder#watchdogTimeout(java.time.Duration)} */
    WATCHDOG_TIMEOUT("watchdogTimeout"),
    /** {@link LockClient.Builder#commandTimeout(java.time.Duration)} */
    COMMAND_TIMEOUT("commandTimeout"),
    /** {@link LockClient.Builder#fairSlotTimeout(java.time.Duration)} */
    FAIR_SLOT_TIMEOUT("fairSlotTimeout"),
    /** The replica count of {@link LockClient.Builder#replicaAcks(int, java.time.Duration)} */
    REPLICA_ACKS_REPLICAS("replicaAcks replicas"),
    /** The timeout of {@link LockClient.Builder#replicaAcks(int, java.time.Duration)} */
    REPLICA_ACKS_TIMEOUT("replicaAcks timeout");

    private final String builderName;

    LockSetting(String builderName) {
        this.builderName = builderName;
    }

    /** @return how the builder's methods call it, e.g. {@code keyPrefix} */
    public String builderName() {
        return builderName;
    }
}

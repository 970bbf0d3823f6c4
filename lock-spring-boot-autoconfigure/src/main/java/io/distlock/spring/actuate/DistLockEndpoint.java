package io.distlock.spring.actuate;

import io.distlock.core.LockClient;
import io.distlock.core.LockInfo;
import io.distlock.spring.autoconfigure.DistLockProperties;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Actuator endpoint {@code distlock}. Read ({@code GET /actuator/distlock}): the locks this
 * instance holds or waits for, and the lock client's settings: the Redis it connects to (no
 * password) and where that choice came from. Delete
 * ({@code DELETE /actuator/distlock/{name}}): force-release a lock whoever holds it, for an
 * operator freeing a lock an instance left behind; like Boot's other write operations it is off
 * unless allowed: {@code management.endpoint.distlock.access=unrestricted}.
 */
@Endpoint(id = "distlock", defaultAccess = Access.READ_ONLY)
public class DistLockEndpoint {

    private final LockClient client;
    private final DistLockProperties properties;
    private final Supplier<String> connectionSource;

    /**
     * @param client           the lock client
     * @param properties       its settings
     * @param connectionSource where the client's connection comes from (properties, Spring Boot's
     *                         connection details, a bean of the application), asked when shown
     */
    public DistLockEndpoint(LockClient client, DistLockProperties properties, Supplier<String> connectionSource) {
        this.client = client;
        this.properties = properties;
        this.connectionSource = connectionSource;
    }

    /** @return the locks held and awaited, and the settings */
    @ReadOperation
    public LocksDescriptor locks() {
        return new LocksDescriptor(client.clientId(), client.locks(), settings());
    }

    /**
     * Deletes the lock, whoever holds it, and wakes its waiters. A holder finds out at its next
     * renewal or release ({@code LockLostException}).
     *
     * @param name the lock's name
     * @return whether there was a lock to release
     */
    @DeleteOperation
    public ForcedRelease forceRelease(@Selector String name) {
        boolean fair = client.locks().stream().anyMatch(lock -> lock.name().equals(name) && "fair".equals(lock.type()));
        // A fair lock's queue goes with it; any other kind is deleted with its readers, if it has some.
        boolean released = fair ? client.getFairLock(name).forceUnlock()
                : client.getReadWriteLock(name).writeLock().forceUnlock();
        return new ForcedRelease(name, released);
    }

    private Map<String, @Nullable Object> settings() {
        Map<String, @Nullable Object> settings = new LinkedHashMap<>();
        settings.put("keyPrefix", client.keyPrefix());
        settings.put("watchdogTimeout", client.watchdogTimeout());
        settings.put("commandTimeout", client.commandTimeout());
        settings.put("waitTime", properties.getWaitTime());
        settings.put("leaseTime", properties.getLeaseTime());
        Map<String, @Nullable Object> connection = new LinkedHashMap<>();
        connection.put("address", client.redisAddress());
        connection.put("source", connectionSource.get());
        settings.put("redis", connection);
        return settings;
    }

    /**
     * @param clientId this instance's lock client
     * @param locks    what it holds and waits for
     * @param settings its settings, the password masked
     */
    public record LocksDescriptor(String clientId, List<LockInfo> locks, Map<String, @Nullable Object> settings) {
    }

    /**
     * @param name     the lock
     * @param released whether there was a lock to release
     */
    public record ForcedRelease(String name, boolean released) {
    }
}

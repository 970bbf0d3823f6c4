package io.distlock.spring.autoconfigure;

import io.lettuce.core.RedisURI;
import io.lettuce.core.SslOptions;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.autoconfigure.service.connection.ConnectionDetails;

import java.util.List;

/**
 * Where distlock's {@link io.distlock.core.LockClient} connects, in the manner of Spring Boot's
 * own connection details. Unless the application defines a bean of this type, the starter defines
 * one from {@code distlock.redis.*} when its connection is set, else from Spring Boot's Redis
 * connection details (so {@code spring.data.redis.*}, {@code @ServiceConnection} and Docker Compose
 * apply), else from {@code spring.data.redis.*} read by name, else {@code localhost:6379}.
 *
 * <p>An application that knows better defines its own, e.g.
 * {@code @Bean DistLockConnectionDetails locks() { return () -> List.of(RedisURI.create("redis://locks:6379")); }}.
 * The RedLock masters of {@code distlock.redlock.nodes} are not described here.
 */
@FunctionalInterface
public interface DistLockConnectionDetails extends ConnectionDetails {

    /**
     * @return the Redis to lock on, each URI with its credentials, database and TLS flag: one URI
     *         for a standalone Redis or a Sentinel-managed master (the URI names its Sentinels),
     *         or the seed nodes of a Redis Cluster when {@link #isCluster()}
     */
    List<RedisURI> getRedisUris();

    /** @return whether {@link #getRedisUris()} are the seed nodes of a Redis Cluster */
    default boolean isCluster() {
        return false;
    }

    /**
     * @return the key and trust material for TLS, or {@code null} for the JVM's defaults (a
     *         {@code rediss://} URI uses TLS either way)
     */
    default @Nullable SslOptions getSslOptions() {
        return null;
    }

    /**
     * @return where this connection comes from, for operators (the {@code distlock} actuator
     *         endpoint shows it): by default, this bean's class
     */
    default String describeSource() {
        return "a DistLockConnectionDetails bean of the application (" + getClass().getName() + ")";
    }
}

package io.distlock.spring.autoconfigure;

import io.lettuce.core.RedisURI;
import io.lettuce.core.SslOptions;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;

import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The starter's own {@link DistLockConnectionDetails}: {@link RedisConnectionSettings}, with the
 * trust material of the SSL bundle they name, else of Spring Boot's Redis connection. The settings
 * are resolved when asked for, by the lock client being built: an application with a lock client
 * of its own never has them resolved, nor refused.
 */
final class SettingsConnectionDetails implements DistLockConnectionDetails {

    private final Supplier<RedisConnectionSettings> settings;
    private final @Nullable SslBundles sslBundles;
    private final @Nullable SslBundle bootSslBundle;

    /**
     * @param settings      where to connect; may throw {@link InvalidLockPropertyException}
     * @param sslBundles    Spring Boot's SSL bundles, or {@code null} if the application has none
     * @param bootSslBundle the SSL bundle of Spring Boot's Redis connection, or {@code null}
     */
    SettingsConnectionDetails(Supplier<RedisConnectionSettings> settings, @Nullable SslBundles sslBundles,
                              @Nullable SslBundle bootSslBundle) {
        this.settings = settings;
        this.sslBundles = sslBundles;
        this.bootSslBundle = bootSslBundle;
    }

    /** @throws InvalidLockPropertyException naming the setting that cannot work */
    @Override
    public List<RedisURI> getRedisUris() {
        RedisConnectionSettings resolved = settings.get();
        return resolved.isCluster() ? resolved.clusterUris() : List.of(resolved.toRedisUri());
    }

    @Override
    public boolean isCluster() {
        return settings.get().isCluster();
    }

    /** @throws InvalidLockPropertyException if the named SSL bundle does not exist */
    @Override
    public @Nullable SslOptions getSslOptions() {
        RedisConnectionSettings resolved = settings.get();
        String bundle = resolved.sslBundle();
        if (bundle != null) {
            // Whoever names a bundle names the property that named it.
            return LettuceSslBundle.options(Objects.requireNonNull(resolved.sslBundleProperty()), bundle, sslBundles);
        }
        return bootSslBundle == null ? null : LettuceSslBundle.options(bootSslBundle);
    }

    @Override
    public String describeSource() {
        return settings.get().describeSource();
    }

    @Override
    public String toString() {
        return settings.get().toString();
    }
}

package io.distlock.spring.autoconfigure;

import io.lettuce.core.RedisURI;
import io.lettuce.core.SslOptions;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;

import java.util.List;

/**
 * The starter's own {@link DistLockConnectionDetails}: {@link RedisConnectionSettings}, with the
 * trust material of the SSL bundle they name, else of Spring Boot's Redis connection.
 */
final class SettingsConnectionDetails implements DistLockConnectionDetails {

    private final RedisConnectionSettings settings;
    private final SslBundles sslBundles;
    private final SslBundle bootSslBundle;

    /**
     * @param settings      where to connect
     * @param sslBundles    Spring Boot's SSL bundles, or {@code null} if the application has none
     * @param bootSslBundle the SSL bundle of Spring Boot's Redis connection, or {@code null}
     */
    SettingsConnectionDetails(RedisConnectionSettings settings, SslBundles sslBundles, SslBundle bootSslBundle) {
        this.settings = settings;
        this.sslBundles = sslBundles;
        this.bootSslBundle = bootSslBundle;
    }

    /** @throws InvalidLockPropertyException naming the setting that cannot work */
    @Override
    public List<RedisURI> getRedisUris() {
        return settings.isCluster() ? settings.clusterUris() : List.of(settings.toRedisUri());
    }

    @Override
    public boolean isCluster() {
        return settings.isCluster();
    }

    /** @throws InvalidLockPropertyException if the named SSL bundle does not exist */
    @Override
    public SslOptions getSslOptions() {
        if (settings.sslBundle() != null) {
            return LettuceSslBundle.options(settings.sslBundleProperty(), settings.sslBundle(), sslBundles);
        }
        return bootSslBundle == null ? null : LettuceSslBundle.options(bootSslBundle);
    }

    @Override
    public String toString() {
        return settings.toString();
    }
}

package io.distlock.spring.autoconfigure;

import io.distlock.core.LockClient;
import io.distlock.core.RedLock;
import io.distlock.core.RedisUris;
import io.lettuce.core.SslOptions;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.ssl.SslBundles;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One {@link LockClient} per independent Redis master of {@code distlock.redlock.nodes}, for
 * {@code @DistributedLock(type = RED_LOCK)}; empty when none is configured. Closed on shutdown.
 */
public final class RedLockNodes implements AutoCloseable {

    private final List<LockClient> clients;

    /** @param clients one client per master */
    public RedLockNodes(List<LockClient> clients) {
        this.clients = List.copyOf(clients);
    }

    /**
     * Connects to every configured master; if one fails, those already connected are closed.
     * {@code rediss://} nodes trust what {@code distlock.redis.ssl-bundle} trusts, if it is set.
     *
     * @param properties distlock's settings
     * @param sslBundles Spring Boot's SSL bundles, or {@code null} if the application has none
     * @param builders   a new builder per master, with the settings every client of the application shares
     * @param customize  applies the application's customizers to a master's builder, once it has
     *                   the starter's settings but for the master's address
     * @return the nodes
     * @throws InvalidLockPropertyException naming a node that is not a Redis URL, or an unknown SSL bundle
     */
    static RedLockNodes connect(DistLockProperties properties, @Nullable SslBundles sslBundles,
                                Supplier<LockClient.Builder> builders, Consumer<LockClient.Builder> customize) {
        List<String> nodes = properties.getRedlock().getNodes();
        String bundle = properties.getRedis().getSslBundle();
        SslOptions sslOptions = bundle == null || nodes.isEmpty() ? null
                : LettuceSslBundle.options("distlock.redis.ssl-bundle", bundle, sslBundles);
        List<LockClient> clients = new ArrayList<>();
        try {
            for (int i = 0; i < nodes.size(); i++) {
                String url = nodes.get(i);
                // The masters' holds are parts of RedLocks, and are reported so.
                LockClient.Builder builder = builders.get().reportedLockType(RedLock.LOCK_TYPE);
                if (sslOptions != null) {
                    builder.sslOptions(sslOptions);
                }
                // Before the master's address, which no customizer may replace.
                customize.accept(builder);
                try {
                    clients.add(builder.redisUri(url).build());
                } catch (IllegalArgumentException e) {
                    throw new InvalidLockPropertyException("distlock.redlock.nodes[" + i + "]", "'"
                            + RedisUris.mask(url) + "' is not a Redis URL",
                            "Use redis://[[user]:password@]host[:port] (rediss:// for TLS), one per independent "
                            + "master.");
                }
            }
        } catch (RuntimeException e) {
            clients.forEach(LockClient::close);
            throw e;
        }
        return new RedLockNodes(clients);
    }

    /** @return the masters' clients, in configuration order */
    public List<LockClient> clients() {
        return clients;
    }

    @Override
    public void close() {
        clients.forEach(LockClient::close);
    }
}

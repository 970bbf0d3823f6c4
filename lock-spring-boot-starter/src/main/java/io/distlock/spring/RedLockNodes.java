package io.distlock.spring;

import io.distlock.core.LockClient;
import io.distlock.core.RedisUris;

import java.util.ArrayList;
import java.util.List;

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
     *
     * @param properties distlock's settings
     * @return the nodes
     * @throws InvalidLockPropertyException naming a node that is not a Redis URL
     */
    static RedLockNodes connect(DistLockProperties properties) {
        List<LockClient> clients = new ArrayList<>();
        try {
            for (int i = 0; i < properties.getRedlock().getNodes().size(); i++) {
                String url = properties.getRedlock().getNodes().get(i);
                LockClient.Builder builder = LockClient.builder()
                        .keyPrefix(properties.getKeyPrefix())
                        .watchdogTimeout(properties.getWatchdog().getTimeout())
                        .commandTimeout(properties.getRedis().getTimeout());
                try {
                    clients.add(builder.redisUri(url).build());
                } catch (IllegalArgumentException e) {
                    throw new InvalidLockPropertyException("distlock.redlock.nodes[" + i + "]", "'"
                            + RedisUris.mask(url) + "' is not a Redis URL (" + e.getMessage() + ")",
                            "Use redis://[[user]:password@]host[:port], one per independent master.");
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

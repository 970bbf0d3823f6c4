package io.distlock.core.engine;

import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisConnectionStateListener;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the disconnects of a Redis client's connections. Redis {@code WAIT} only counts the
 * writes of the connection it runs on, and after a reconnect Lettuce sends a pending command on
 * the new connection: if a connection dropped between a write and its {@code WAIT}'s answer, that
 * answer proves nothing about the write. (A connection opened meanwhile replaced nothing: the
 * first use of a cluster node's connection opens it.)
 */
final class ConnectionChanges implements RedisConnectionStateListener {

    private final AtomicLong disconnects = new AtomicLong();

    /** @return disconnects so far */
    long count() {
        return disconnects.get();
    }

    @Override
    public void onRedisDisconnected(RedisChannelHandler<?, ?> connection) {
        disconnects.incrementAndGet();
    }
}

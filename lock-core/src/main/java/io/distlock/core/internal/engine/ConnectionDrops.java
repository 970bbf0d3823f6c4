package io.distlock.core.internal.engine;

import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisConnectionStateListener;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the disconnects of a Redis client's connections. After a reconnect Lettuce sends the
 * commands that were unanswered at the drop again (at-least-once), so an answer that arrives after
 * a drop may come from a second run, on another connection: a release may find its own earlier run
 * done, and a {@code WAIT} (which counts only its own connection's writes) proves nothing about the
 * write before it. A connection opened without a drop replaced nothing (the first use of a cluster
 * node's connection opens it), so only drops count.
 */
final class ConnectionDrops implements RedisConnectionStateListener {

    private final AtomicLong disconnects = new AtomicLong();

    /** @return disconnects so far */
    long count() {
        return disconnects.get();
    }

    @Override
    public void onRedisDisconnected(RedisChannelHandler<?, ?> connection) {
        // A connection closed on purpose (topology refreshes and Sentinel lookups open and close
        // short-lived ones) is marked closed before it goes inactive: only a drop counts.
        if (!connection.isClosed()) {
            disconnects.incrementAndGet();
        }
    }
}

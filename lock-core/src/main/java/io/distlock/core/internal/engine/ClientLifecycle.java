package io.distlock.core.internal.engine;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Whether a client is open. Closing is one-way: once {@link #markClosed()} returned {@code true},
 * every lock call fails with {@link IllegalStateException}, and what retries in the background
 * (undos, resubscriptions) stops.
 */
final class ClientLifecycle {

    private final String clientId;
    private final AtomicBoolean closed = new AtomicBoolean();

    /** @param clientId the client's id, for messages */
    ClientLifecycle(String clientId) {
        this.clientId = clientId;
    }

    /** @throws IllegalStateException if the client was closed */
    void ensureOpen() {
        if (closed.get()) {
            throw new IllegalStateException("LockClient " + clientId + " is closed");
        }
    }

    /** @return whether the client was closed */
    boolean isClosed() {
        return closed.get();
    }

    /** @return {@code true} for the first call, {@code false} if already closed */
    boolean markClosed() {
        return closed.compareAndSet(false, true);
    }
}

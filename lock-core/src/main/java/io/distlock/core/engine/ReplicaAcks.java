package io.distlock.core.engine;

import java.util.concurrent.CompletableFuture;

/**
 * Waits until enough replicas have a lock change, with Redis {@code WAIT}, on the connection that
 * made the change (WAIT counts the calling connection's own writes). Off unless asked for: while
 * a WAIT runs, the client's other commands on that connection queue behind it.
 *
 * @param connections   the client's connections
 * @param replicas      replicas that must acknowledge, at least 1
 * @param timeoutMillis how long one WAIT may take, &gt; 0
 */
public record ReplicaAcks(RedisConnections connections, int replicas, long timeoutMillis) {

    /**
     * @param key a key the change touched, naming the node to ask on a cluster
     * @return completes when enough replicas acknowledged; fails with {@link ReplicaAckShortfall}
     *         when fewer did within the timeout, or with the Redis failure
     */
    public CompletableFuture<Void> await(String key) {
        return connections.waitForReplicas(key, replicas, timeoutMillis).thenAccept(acknowledged -> {
            if (acknowledged < replicas) {
                throw new ReplicaAckShortfall(acknowledged);
            }
        });
    }

    /** Fewer replicas than required acknowledged a change within the timeout. */
    static final class ReplicaAckShortfall extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final long acknowledged;

        ReplicaAckShortfall(long acknowledged) {
            super(acknowledged + " replicas acknowledged", null, false, false);
            this.acknowledged = acknowledged;
        }

        long acknowledged() {
            return acknowledged;
        }
    }
}

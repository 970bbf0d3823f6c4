package io.distlock.core.internal.engine;

import java.util.concurrent.CompletableFuture;

/**
 * Waits until enough replicas have a lock change, with Redis {@code WAIT}, on the connection that
 * made the change (WAIT counts the calling connection's own writes). Off unless asked for: while
 * a WAIT runs, the client's other commands on that connection queue behind it.
 *
 * @param connector     the client's way to Redis
 * @param replicas      replicas that must acknowledge, at least 1
 * @param timeoutMillis how long one WAIT may take, &gt; 0
 */
public record ReplicaAcks(RedisConnector connector, int replicas, long timeoutMillis) {

    /** @return a mark to take before sending a change, for {@link #await(String, long)} */
    public long mark() {
        return connector.drops();
    }

    /**
     * @param key  a key the change touched, naming the node to ask on a cluster
     * @param mark {@link #mark()} from before the change was sent
     * @return completes when enough replicas acknowledged; fails with {@link Unconfirmed} when
     *         fewer did within the timeout, or a connection was replaced meanwhile (then the
     *         {@code WAIT} ran on a connection that never made the change), or with the Redis failure
     */
    public CompletableFuture<Void> await(String key, long mark) {
        return connector.waitForReplicas(key, replicas, timeoutMillis).thenAccept(acknowledged -> {
            if (connector.drops() != mark) {
                throw new Unconfirmed("the connection to Redis was replaced before the replicas answered");
            }
            if (acknowledged < replicas) {
                throw new Unconfirmed("only " + acknowledged + " of " + replicas + " replicas acknowledged it within "
                        + timeoutMillis + " ms");
            }
        });
    }

    /** A change was not confirmed by enough replicas. */
    static final class Unconfirmed extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Unconfirmed(String why) {
            super(why, null, false, false);
        }
    }
}

package io.distlock.core;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static io.distlock.test.Polling.awaitTrue;

/** Waits, by pinging, until a client is connected again, or knows that it has no connection. */
final class ConnectionProbes {

    private ConnectionProbes() {
    }

    /** Waits until a ping of the client is answered (the client connected, or reconnected, by itself). */
    static void awaitConnected(LockClient client) {
        awaitTrue("the client connected by itself", Duration.ofSeconds(30), () -> {
            try {
                client.ping();
                return true;
            } catch (LockException e) {
                return false;
            }
        });
    }

    /**
     * Waits until a ping of the client fails within a second: it has no connection and knows it
     * (not connected yet, or Lettuce failed to reconnect), so it does not wait for an answer.
     */
    static void awaitFailingAtOnce(LockClient client) {
        awaitTrue("the client knows it has no connection", Duration.ofSeconds(20), () -> {
            long start = System.nanoTime();
            try {
                client.ping();
                return false;
            } catch (LockException e) {
                return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) < 1_000;
            }
        });
    }
}

package io.distlock.core;

import java.time.Duration;

import static io.distlock.test.Polling.awaitTrue;

/** Waits, by pinging, until a client is connected again. */
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
}

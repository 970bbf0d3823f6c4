package io.distlock.test;

import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Bounded polling until a server answers PING. */
final class Readiness {

    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(1);

    private Readiness() {
    }

    /**
     * Polls PING until it answers PONG, {@code stillStarting} turns false, or the timeout elapses.
     *
     * @return {@code null} when ready, else a description of the last failure
     */
    static String awaitPong(RedisServer server, Duration timeout, BooleanSupplier stillStarting) {
        long deadline = System.nanoTime() + timeout.toNanos();
        String lastFailure = "no attempt made";
        while (true) {
            if (!stillStarting.getAsBoolean()) {
                return "the server exited during startup";
            }
            try {
                Object reply = server.command(PROBE_TIMEOUT, "PING");
                if ("PONG".equals(reply)) {
                    return null;
                }
                lastFailure = "unexpected PING reply " + reply;
            } catch (UncheckedIOException | RedisReplyException e) {
                lastFailure = e.getMessage();
            }
            if (System.nanoTime() >= deadline) {
                return "not ready within " + timeout + ": " + lastFailure;
            }
            Sleeper.pause(20);
        }
    }
}

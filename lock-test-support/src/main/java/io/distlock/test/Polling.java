package io.distlock.test;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Bounded polling for tests: waits for a condition instead of sleeping a fixed time, and fails
 * with what it waited for when the limit passes.
 */
public final class Polling {

    private Polling() {
    }

    /**
     * Polls every few milliseconds until the condition holds.
     *
     * @param what      the condition in words, for the failure message
     * @param timeout   how long to wait at most
     * @param condition the condition
     * @throws AssertionError if it did not hold within the timeout, or the thread was interrupted
     */
    public static void awaitTrue(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Timed out after " + timeout.toMillis() + " ms waiting until " + what);
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting until " + what, e);
            }
        }
    }
}

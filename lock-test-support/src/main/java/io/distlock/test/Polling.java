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
        if (!within(timeout, condition)) {
            if (Thread.currentThread().isInterrupted()) {
                throw new AssertionError("interrupted while waiting until " + what);
            }
            throw new AssertionError("Timed out after " + timeout.toMillis() + " ms waiting until " + what);
        }
    }

    /**
     * Polls every few milliseconds until the condition holds or the time is up.
     *
     * @param timeout   how long to wait at most
     * @param condition the condition
     * @return whether it held within the timeout ({@code false} also when the thread was
     *         interrupted, whose flag is then set again)
     */
    public static boolean within(Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }
}

package io.distlock.test;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Bounded polling on OS processes for the fixture's own tests (the shared kind is {@link Polling}). */
final class ProcessPolling {

    private ProcessPolling() {
    }

    /** Polls {@code condition} every 20 ms; returns whether it became true within {@code timeout}. */
    static boolean within(Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (condition.getAsBoolean()) {
                return true;
            }
            if (System.nanoTime() >= deadline) {
                return false;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }

    /** Whether an OS process with this pid exists and is not a zombie. */
    static boolean processAlive(long pid) {
        boolean exists = ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        return exists && Signals.procState(pid).map(state -> state != 'Z' && state != 'X').orElse(true);
    }
}

package io.distlock.test;

/** Short sleeps inside bounded polling loops, keeping the interrupt flag. */
final class Sleeper {

    private Sleeper() {
    }

    static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting", e);
        }
    }
}

package io.distlock.benchmarks;

import java.util.concurrent.TimeUnit;

/**
 * Measures how late a thread that sleeps 10 ms at a time wakes up: the longest stall of this JVM
 * (GC pause, or the machine too busy to run it) while it runs. A lease is lost when renewal stalls
 * longer than the lease minus the renewal interval, whichever client renews it, so a lost lock
 * next to a long stall points at the machine, not at the client.
 */
final class PauseMonitor implements AutoCloseable {

    private static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private final Thread thread;
    private volatile long longestNanos;
    private volatile boolean stopped;

    private PauseMonitor() {
        thread = new Thread(this::watch, "bench-pause-monitor");
        thread.setDaemon(true);
    }

    /** @return a monitor, running */
    static PauseMonitor start() {
        PauseMonitor monitor = new PauseMonitor();
        monitor.thread.start();
        return monitor;
    }

    /** @return the longest delay beyond the 10 ms sleep seen so far, in milliseconds */
    long longestMillis() {
        return TimeUnit.NANOSECONDS.toMillis(longestNanos);
    }

    private void watch() {
        long before = System.nanoTime();
        while (!stopped) {
            try {
                TimeUnit.NANOSECONDS.sleep(TICK_NANOS);
            } catch (InterruptedException e) {
                return;
            }
            long now = System.nanoTime();
            longestNanos = Math.max(longestNanos, now - before - TICK_NANOS);
            before = now;
        }
    }

    /** Stops the monitor's thread. */
    @Override
    public void close() {
        stopped = true;
        thread.interrupt();
    }
}

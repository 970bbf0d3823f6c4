package io.distlock.faults.checker;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Interrupts one worker thread at a planned moment, but only while that thread is still inside the
 * acquisition it was planned for: an interrupt never leaks into the critical section or into the
 * next operation.
 */
final class Interrupter {

    private final ScheduledExecutorService timer;
    private final Thread target;
    private long armedFor = -1;

    /**
     * @param timer  runs the planned interrupts
     * @param target the worker thread
     */
    Interrupter(ScheduledExecutorService timer, Thread target) {
        this.timer = timer;
        this.target = target;
    }

    /**
     * Called by the target before its acquisition.
     *
     * @param operation the operation's index
     * @param afterMs   when to interrupt; -1: not at all
     */
    void arm(int operation, long afterMs) {
        if (afterMs < 0) {
            return;
        }
        synchronized (this) {
            armedFor = operation;
        }
        timer.schedule(() -> fire(operation), afterMs, TimeUnit.MILLISECONDS);
    }

    /**
     * Called by the target once its acquisition returned: no interrupt after this, and a pending
     * interrupt flag (an interrupt that came after the acquisition had already returned) is cleared.
     */
    void disarm() {
        synchronized (this) {
            armedFor = -1;
        }
        Thread.interrupted();
    }

    private synchronized void fire(int operation) {
        if (armedFor == operation) {
            target.interrupt();
        }
    }
}

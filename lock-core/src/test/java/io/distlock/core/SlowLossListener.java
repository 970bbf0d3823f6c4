package io.distlock.core;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * Takes {@link #DELAY} over each loss before the listeners after it hear of it, and tells when a
 * loss arrived: registered before a {@link RecordingListener}, it shows whether a call that
 * reports a loss waits for its delivery instead of racing it.
 */
final class SlowLossListener implements LockListener {

    /** Well under the 1 s a result waits at most for the delivery of its events. */
    static final Duration DELAY = Duration.ofMillis(300);

    /** Counted down when the first loss arrives, before the delay. */
    final CountDownLatch lossArrived = new CountDownLatch(1);

    @Override
    public void onLost(LockEvent event) {
        lossArrived.countDown();
        try {
            Thread.sleep(DELAY.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

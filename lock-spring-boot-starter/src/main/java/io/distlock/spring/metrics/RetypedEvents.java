package io.distlock.spring.metrics;

import io.distlock.core.LockEvent;
import io.distlock.core.LockListener;

/**
 * Passes a client's events on with another lock type: the holds a RedLock takes on each master
 * are reentrant locks there, but are counted as the RedLock they belong to.
 */
final class RetypedEvents implements LockListener {

    private final LockListener target;
    private final String type;

    RetypedEvents(LockListener target, String type) {
        this.target = target;
        this.type = type;
    }

    @Override
    public void onWaiting(LockEvent event) {
        target.onWaiting(retyped(event));
    }

    @Override
    public void onAcquired(LockEvent event) {
        target.onAcquired(retyped(event));
    }

    @Override
    public void onAcquireFailed(LockEvent event) {
        target.onAcquireFailed(retyped(event));
    }

    @Override
    public void onReleased(LockEvent event) {
        target.onReleased(retyped(event));
    }

    @Override
    public void onRenewed(LockEvent event) {
        target.onRenewed(retyped(event));
    }

    @Override
    public void onRenewalFailed(LockEvent event) {
        target.onRenewalFailed(retyped(event));
    }

    @Override
    public void onRenewalLost(LockEvent event) {
        target.onRenewalLost(retyped(event));
    }

    @Override
    public void onLost(LockEvent event) {
        target.onLost(retyped(event));
    }

    private LockEvent retyped(LockEvent event) {
        return new LockEvent(event.lockName(), event.group(), type, event.holderId(), event.holdCount(),
                event.duration(), event.waited(), event.failure(), event.cause());
    }
}

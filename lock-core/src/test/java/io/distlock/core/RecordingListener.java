package io.distlock.core;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Keeps every event it receives, by kind, for assertions. Shared with other modules' tests
 * through lock-core's test jar.
 */
public final class RecordingListener implements LockListener {

    public final List<LockEvent> waiting = new CopyOnWriteArrayList<>();
    public final List<LockEvent> acquired = new CopyOnWriteArrayList<>();
    public final List<LockEvent> failed = new CopyOnWriteArrayList<>();
    public final List<LockEvent> released = new CopyOnWriteArrayList<>();
    public final List<LockEvent> renewed = new CopyOnWriteArrayList<>();
    public final List<LockEvent> renewalFailed = new CopyOnWriteArrayList<>();
    public final List<LockEvent> renewalLost = new CopyOnWriteArrayList<>();
    public final List<LockEvent> lost = new CopyOnWriteArrayList<>();

    @Override
    public void onWaiting(LockEvent event) {
        waiting.add(event);
    }

    @Override
    public void onAcquired(LockEvent event) {
        acquired.add(event);
    }

    @Override
    public void onAcquireFailed(LockEvent event) {
        failed.add(event);
    }

    @Override
    public void onReleased(LockEvent event) {
        released.add(event);
    }

    @Override
    public void onRenewed(LockEvent event) {
        renewed.add(event);
    }

    @Override
    public void onRenewalFailed(LockEvent event) {
        renewalFailed.add(event);
    }

    @Override
    public void onRenewalLost(LockEvent event) {
        renewalLost.add(event);
    }

    @Override
    public void onLost(LockEvent event) {
        lost.add(event);
    }
}

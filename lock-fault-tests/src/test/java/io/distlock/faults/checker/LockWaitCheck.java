package io.distlock.faults.checker;

import io.distlock.faults.checker.OpRecord.Outcome;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@code LOCK_WAIT}: a {@code lock()} (no wait limit) that went on waiting while its lock was
 * demonstrably free for longer than {@link CheckerSettings#WAIT_SLACK_MS} plus the length of every
 * fault in force during the call. Free means: no other operation on one of its names that could
 * keep it out was running. Another operation counts as keeping the lock from its call until it
 * ended ({@link OpRecord#done()}), plus {@link #RELEASE_MARGIN_MS} when its last release was
 * confirmed, else plus its whole lease (an attempt that got nothing may still hold until its undo,
 * a release that failed leaves the lease to run out). Reads do not keep out a read. A semaphore is
 * free while fewer than {@link CheckerSettings#PERMITS} of its permits could be out: each other
 * operation on it counts with every permit it took, over its whole span.
 */
final class LockWaitCheck {

    /** After a confirmed release, how long the lock may still look taken (a yield to another client's waiter), in ms. */
    static final long RELEASE_MARGIN_MS = 200;

    /** An operation that may keep the waiter out from {@code from} to {@code to}, with {@code permits} permits. */
    private record Span(long from, long to, int permits) {
    }

    private final List<FaultRecord> faults;

    /** @param faults every fault of the run */
    LockWaitCheck(List<FaultRecord> faults) {
        this.faults = faults;
    }

    /**
     * @param ops every operation of the run
     * @return the {@code lock()} calls that waited on a free lock too long
     */
    List<Finding> check(List<OpRecord> ops) {
        Map<String, List<OpRecord>> byName = new HashMap<>();
        for (OpRecord op : ops) {
            op.locks().forEach(lock -> byName.computeIfAbsent(lock.substring(2), name -> new ArrayList<>()).add(op));
        }
        List<Finding> violations = new ArrayList<>();
        for (OpRecord op : ops) {
            if (op.call() != Operation.Call.LOCK || op.outcome() != Outcome.ACQUIRED) {
                continue;
            }
            Set<OpRecord> sameNames = new HashSet<>();
            op.locks().forEach(lock -> sameNames.addAll(byName.get(lock.substring(2))));
            long freeMs = freeNanos(op, sameNames) / 1_000_000;
            long faultMs = FaultRecord.millisInForce(faults, op.callStart(), op.callEnd());
            long allowedMs = CheckerSettings.WAIT_SLACK_MS + faultMs;
            if (freeMs > allowedMs) {
                violations.add(new Finding("LOCK_WAIT", op.holder() + "'s lock() of " + op.locks() + " waited "
                        + freeMs + " ms while nothing else was on the lock (allowed " + allowedMs + " ms, "
                        + faultMs + " ms of it for faults)", List.of(op)));
            }
        }
        return violations;
    }

    private static long freeNanos(OpRecord waiter, Collection<OpRecord> ops) {
        List<Span> taken = new ArrayList<>();
        for (OpRecord other : ops) {
            if (!other.holder().equals(waiter.holder()) && keepsOut(other, waiter)) {
                long end = other.done() < 0 ? Long.MAX_VALUE : other.done() + 1_000_000 * ("OK".equals(other.release())
                        ? RELEASE_MARGIN_MS : other.effectiveLeaseMs());
                taken.add(new Span(Math.max(other.callStart(), waiter.callStart()), Math.min(end, waiter.callEnd()),
                        Math.max(1, other.depth())));
            }
        }
        taken.removeIf(span -> span.from() >= span.to());
        int capacity = waiter.kind() == LockKind.SEMAPHORE ? CheckerSettings.PERMITS : 1;
        // Sweep the spans' ends: the lock is free wherever fewer than its capacity are taken.
        TreeMap<Long, Integer> changes = new TreeMap<>();
        for (Span span : taken) {
            changes.merge(span.from(), span.permits(), Integer::sum);
            changes.merge(span.to(), -span.permits(), Integer::sum);
        }
        long free = 0;
        long cursor = waiter.callStart();
        int out = 0;
        for (Map.Entry<Long, Integer> change : changes.entrySet()) {
            if (out < capacity) {
                free += change.getKey() - cursor;
            }
            out += change.getValue();
            cursor = change.getKey();
        }
        return free + Math.max(0, waiter.callEnd() - cursor);
    }

    /** @return whether {@code other} asks for a name of {@code waiter} in a way that excludes it */
    private static boolean keepsOut(OpRecord other, OpRecord waiter) {
        for (String lock : waiter.locks()) {
            String name = lock.substring(2);
            boolean exclusive = lock.startsWith("X:");
            if (lock.startsWith("P:") ? other.locks().contains(lock)
                    : other.locks().contains("X:" + name) || (exclusive && other.locks().contains("S:" + name))) {
                return true;
            }
        }
        return false;
    }
}

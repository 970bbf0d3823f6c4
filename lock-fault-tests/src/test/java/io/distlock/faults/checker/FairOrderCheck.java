package io.distlock.faults.checker;

import io.distlock.faults.checker.OpRecord.Outcome;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code FIFO}: a fair lock serves its waiters in the order they queued. The oracle cannot see
 * the queue in Redis, so it judges only pairs whose order it knows:
 * <ul>
 *   <li>both are single fair locks of one name (any call, two overlapping async calls of one
 *       holder included), and both got the lock;</li>
 *   <li>the library told the first one's worker that it was waiting ({@link OpRecord#queued}),
 *       which it says once the first attempt found the lock taken and queued it in Redis, before
 *       the second one's call began: so the first one had its place before the second one's
 *       first attempt could run. A start time alone proves nothing: on a loaded machine a call's
 *       first round trip may come after a later call's, however much earlier it began;</li>
 *   <li>no fault that could hinder the first one ({@link FaultRecord#hinders}) was in force from
 *       its call to its entry: nothing dropped its queue place (a frozen process misses its slot
 *       and is dropped, a failed round trip may leave), and since it got the lock it did not give
 *       up.</li>
 * </ul>
 * Then the second one's whole critical section lying before the first one's entry is a violation:
 * the first one was queued ahead and still waiting when the second was served.
 */
final class FairOrderCheck {

    private final List<FaultRecord> faults;
    private long judged;

    /** @param faults every fault of the run */
    FairOrderCheck(List<FaultRecord> faults) {
        this.faults = faults;
    }

    /**
     * @param ops every operation of the run
     * @return the waiters served out of order
     */
    List<Finding> check(List<OpRecord> ops) {
        Map<String, List<OpRecord>> byName = new LinkedHashMap<>();
        for (OpRecord op : ops) {
            if (op.kind() == LockKind.FAIR && op.outcome() == Outcome.ACQUIRED
                    && op.held() && op.exit() >= 0) {
                byName.computeIfAbsent(op.locks().get(0).substring(2), name -> new ArrayList<>()).add(op);
            }
        }
        List<Finding> violations = new ArrayList<>();
        byName.forEach((name, waiters) -> {
            waiters.sort(Comparator.comparingLong(OpRecord::callStart));
            for (int i = 0; i < waiters.size(); i++) {
                OpRecord first = waiters.get(i);
                if (first.queued() < 0 || !undisturbed(first)) {
                    continue;
                }
                for (int j = i + 1; j < waiters.size() && waiters.get(j).callStart() < first.entry(); j++) {
                    OpRecord second = waiters.get(j);
                    if (second.callStart() - first.queued() <= 0) {
                        continue;
                    }
                    judged++;
                    if (second.exit() < first.entry()) {
                        violations.add(new Finding("FIFO", second.holder() + " was served on " + name + " before "
                                + first.holder() + ", queued in Redis at least "
                                + (second.callStart() - first.queued()) / 1_000_000 + " ms before its call began",
                                List.of(first, second)));
                    }
                }
            }
        });
        return violations;
    }

    /** @return how many pairs of waiters the last {@link #check} judged: how much the property covered */
    long judged() {
        return judged;
    }

    private boolean undisturbed(OpRecord waiter) {
        return faults.stream()
                .noneMatch(fault -> fault.hinders(waiter) && fault.inForceDuring(waiter.callStart(), waiter.entry()));
    }
}

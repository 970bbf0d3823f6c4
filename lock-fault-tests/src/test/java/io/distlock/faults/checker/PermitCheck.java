package io.distlock.faults.checker;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code PERMITS}: more than {@link CheckerSettings#PERMITS} permits of one semaphore out at the
 * same time, counting every hold of every operation (a holder's re-entries and overlapping async
 * calls each take a permit). An operation holds one permit over its critical section, and each
 * further one from when its call returned until its inner releases began, so the count is a lower
 * bound of what Redis granted. Excused only where honest expiries explain it, covering at least the
 * excess between them: an operation that could have lapsed before the others had their permits
 * explains all its permits; one whose own earlier permits could have lapsed before its latest grant
 * (a thread whose explicit lease ran out while it waited for one more is granted a fresh one)
 * explains all but its latest.
 */
final class PermitCheck {

    /** One change of an operation's permits: {@code +1} when one was granted, {@code -1} when one was given back. */
    private record Step(long at, int change, OpRecord op) {
    }

    private final HonestExpiry expiry;
    private final List<Finding> violations = new ArrayList<>();
    private final List<Excused> excused = new ArrayList<>();

    /** @param expiry decides which excess an honest expiry explains */
    PermitCheck(HonestExpiry expiry) {
        this.expiry = expiry;
    }

    /** @param ops every operation of the run */
    void check(List<OpRecord> ops) {
        Map<String, List<Step>> bySemaphore = new LinkedHashMap<>();
        for (OpRecord op : ops) {
            if (op.held() && op.locks().size() == 1 && op.locks().get(0).startsWith("P:")) {
                steps(op, bySemaphore.computeIfAbsent(op.locks().get(0).substring(2), name -> new ArrayList<>()));
            }
        }
        bySemaphore.forEach(this::sweep);
    }

    /** @return the excess no honest expiry explains */
    List<Finding> violations() {
        return violations;
    }

    /** @return the excess honest expiries explain, each with an excuse */
    List<Excused> excused() {
        return excused;
    }

    /** Adds the steps of one operation's permits: the first over its section, the others until its inner releases. */
    private static void steps(OpRecord op, List<Step> steps) {
        steps.add(new Step(op.entry(), 1, op));
        steps.add(new Step(op.exit() < 0 ? Long.MAX_VALUE : op.exit(), -1, op));
        if (op.depth() < 2 || op.innerRelease() < 0) {
            return;
        }
        long[] granted = op.leaseCalls().stream().mapToLong(LeaseCall::end).sorted().toArray();
        for (int i = 1; i < Math.min(op.depth(), granted.length); i++) {
            if (granted[i] < op.innerRelease()) {
                steps.add(new Step(granted[i], 1, op));
                steps.add(new Step(op.innerRelease(), -1, op));
            }
        }
    }

    private void sweep(String name, List<Step> steps) {
        // At the same moment, a permit given back comes before one granted: the sections only touch.
        steps.sort(Comparator.comparingLong(Step::at).thenComparingInt(Step::change));
        Map<OpRecord, Integer> held = new LinkedHashMap<>();
        Map<OpRecord, Long> lastGrant = new LinkedHashMap<>();
        Set<Set<String>> reported = new HashSet<>();
        int out = 0;
        for (Step step : steps) {
            held.merge(step.op(), step.change(), Integer::sum);
            held.remove(step.op(), 0);
            out += step.change();
            if (step.change() < 0) {
                continue;
            }
            lastGrant.put(step.op(), step.at());
            lastGrant.keySet().retainAll(held.keySet());
            Set<String> ids = new HashSet<>();
            held.keySet().forEach(op -> ids.add(op.id()));
            if (out > CheckerSettings.PERMITS && reported.add(ids)) {
                judge(name, out, Map.copyOf(held), Map.copyOf(lastGrant));
            }
        }
    }

    /**
     * @param held      the operations inside, with their permits
     * @param lastGrant when each of them was last granted a permit
     */
    private void judge(String name, int out, Map<OpRecord, Integer> held, Map<OpRecord, Long> lastGrant) {
        List<OpRecord> involved = held.keySet().stream().sorted(Comparator.comparingLong(OpRecord::entry)).toList();
        Finding finding = new Finding("PERMITS", out + " permits of semaphore " + name + " (of "
                + CheckerSettings.PERMITS + ") were out at once: " + involved.stream()
                .map(op -> op.holder() + " x" + held.get(op)).toList(), involved);
        int explained = 0;
        Excuse first = null;
        for (OpRecord op : involved) {
            long othersIn = lastGrant.entrySet().stream().filter(entry -> !entry.getKey().id().equals(op.id()))
                    .mapToLong(Map.Entry::getValue).max().orElse(op.entry());
            Optional<Excuse> excuse = expiry.before(op, othersIn);
            int permits = held.get(op);
            if (excuse.isEmpty() && permits > 1) {
                long latest = lastGrant.get(op);
                excuse = expiry.before(op.leaseSetBefore(latest), latest);
                permits--;
            }
            if (excuse.isPresent()) {
                explained += permits;
                first = first == null ? excuse.get() : first;
            }
        }
        if (first != null && explained >= out - CheckerSettings.PERMITS) {
            excused.add(new Excused(finding, first));
        } else {
            violations.add(finding);
        }
    }
}

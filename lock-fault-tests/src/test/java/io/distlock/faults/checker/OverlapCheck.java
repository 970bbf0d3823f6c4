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
 * {@code OVERLAP}: two critical sections of different holders at the same time on one name where
 * at least one hold is exclusive (every kind but read excludes every kind; reads share). Excused
 * only where an honest expiry explains it ({@link Excuse}): either hold may be the one that lapsed,
 * because which one Redis granted first is known only up to the calls' spans (a holder frozen
 * right after its grant enters late).
 */
final class OverlapCheck {

    private record Hold(OpRecord op, long entry, long exit, boolean exclusive) {
    }

    private final HonestExpiry expiry;
    private final List<Finding> violations = new ArrayList<>();
    private final List<Excused> excused = new ArrayList<>();

    /** @param expiry decides which overlaps an honest expiry explains */
    OverlapCheck(HonestExpiry expiry) {
        this.expiry = expiry;
    }

    /** @param ops every operation of the run */
    void check(List<OpRecord> ops) {
        Map<String, List<Hold>> byName = new LinkedHashMap<>();
        for (OpRecord op : ops) {
            if (!op.held()) {
                continue;
            }
            long exit = op.exit() < 0 ? Long.MAX_VALUE : op.exit();
            for (String lock : op.locks()) {
                if (lock.startsWith("P:")) {
                    continue;  // a semaphore permit: PermitCheck's
                }
                byName.computeIfAbsent(lock.substring(2), name -> new ArrayList<>())
                        .add(new Hold(op, op.entry(), exit, lock.startsWith("X:")));
            }
        }
        Set<String> reported = new HashSet<>();
        byName.forEach((name, holds) -> {
            holds.sort(Comparator.comparingLong(Hold::entry));
            List<Hold> active = new ArrayList<>();
            for (Hold hold : holds) {
                active.removeIf(earlier -> earlier.exit() <= hold.entry());
                for (Hold earlier : active) {
                    boolean conflict = (earlier.exclusive() || hold.exclusive())
                            && !earlier.op().holder().equals(hold.op().holder());
                    if (conflict && reported.add(earlier.op().id() + "|" + hold.op().id())) {
                        judge(name, earlier.op(), hold.op());
                    }
                }
                active.add(hold);
            }
        });
    }

    /** @return the overlaps no honest expiry explains */
    List<Finding> violations() {
        return violations;
    }

    /** @return the overlaps an honest expiry explains, each with its excuse */
    List<Excused> excused() {
        return excused;
    }

    private void judge(String name, OpRecord earlier, OpRecord later) {
        Finding finding = new Finding("OVERLAP", later.holder() + " entered " + name + " while " + earlier.holder()
                + " was inside", List.of(earlier, later));
        Optional<Excuse> excuse = expiry.before(earlier, later.entry()).or(() -> expiry.before(later, earlier.entry()));
        excuse.ifPresentOrElse(reason -> excused.add(new Excused(finding, reason)), () -> violations.add(finding));
    }
}

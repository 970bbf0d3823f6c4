package io.distlock.faults.checker;

import io.distlock.faults.checker.OpRecord.Outcome;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The oracle: judges a run's histories without asking the library anything. It finds
 * <ul>
 *   <li>{@code OVERLAP}: two critical sections of different holders at the same time on one name
 *       where at least one hold is exclusive (every kind but read excludes every kind; reads
 *       share), unless the earlier holder was told its lease was lost: then the overlap is
 *       <em>excused</em> and listed apart. Which holder Redis granted first is known only up to
 *       the call's span (a holder frozen right after its grant enters late), so a holder told
 *       its lease was lost counts as the earlier one if its call began before the other entered;</li>
 *   <li>{@code TOKEN}: a fenced hold whose token is not above the token of every fenced hold of that
 *       name that had ended before it began (excused likewise if one of the two was told);</li>
 *   <li>{@code WAIT}: a call that took longer than its wait time plus
 *       {@link CheckerSettings#WAIT_SLACK_MS} plus the length of every fault in force during it;</li>
 *   <li>{@code UNFINISHED}: an operation still running when its worker had to stop;</li>
 *   <li>{@code GIVE_UP_LEAK}: a holder whose acquisition was interrupted or cancelled still
 *       holding the lock seconds later;</li>
 *   <li>{@code RELEASE_REFUSED}: a release refused as "not held" ({@code IllegalMonitorStateException}
 *       that is not a {@code LockLostException}) although every acquisition it ends returned
 *       {@code true}: each successful acquisition is owed one release, unless the library reported
 *       its lease lost, or its explicit lease ran out more than one watchdog timeout before (either
 *       way the hold is forgotten by contract).</li>
 * </ul>
 * Holds left in Redis after the run are added by the caller.
 */
final class HistoryChecker {

    private record Hold(OpRecord op, long entry, long exit, boolean exclusive) {
    }

    private final List<OpRecord> ops;
    private final List<FaultRecord> faults;
    private final List<Finding> violations = new ArrayList<>();
    private final List<Finding> excused = new ArrayList<>();

    /**
     * @param ops    every worker's records
     * @param faults the faults applied, in order
     */
    HistoryChecker(List<OpRecord> ops, List<FaultRecord> faults) {
        this.ops = ops;
        this.faults = faults.stream().sorted(Comparator.comparingLong(FaultRecord::start)).toList();
    }

    /** Runs every check. */
    void check() {
        overlaps();
        tokens();
        perOperation();
    }

    /** @return the violations found */
    List<Finding> violations() {
        return violations;
    }

    /** @return the overlaps and token inversions the library reported to a holder as lost leases */
    List<Finding> excused() {
        return excused;
    }

    private void overlaps() {
        Map<String, List<Hold>> byName = new LinkedHashMap<>();
        for (OpRecord op : ops) {
            if (!op.held()) {
                continue;
            }
            long exit = op.exit() < 0 ? Long.MAX_VALUE : op.exit();
            for (String lock : op.locks()) {
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
                        boolean told = earlier.op().lost()
                                || (hold.op().lost() && hold.op().callStart() < earlier.entry());
                        Finding finding = new Finding("OVERLAP", hold.op().holder() + " entered " + name
                                + " while " + earlier.op().holder() + " was inside"
                                + (told ? " (the earlier holder was told its lease was lost)" : ""),
                                List.of(earlier.op(), hold.op()));
                        (told ? excused : violations).add(finding);
                    }
                }
                active.add(hold);
            }
        });
    }

    private void tokens() {
        Map<String, List<OpRecord>> byName = new LinkedHashMap<>();
        for (OpRecord op : ops) {
            if (op.held() && op.kind() == LockKind.FENCED && op.token() >= 0 && op.exit() >= 0) {
                byName.computeIfAbsent(op.locks().get(0), name -> new ArrayList<>()).add(op);
            }
        }
        byName.forEach((name, fenced) -> {
            List<OpRecord> byEntry = fenced.stream().sorted(Comparator.comparingLong(OpRecord::entry)).toList();
            List<OpRecord> byExit = fenced.stream().sorted(Comparator.comparingLong(OpRecord::exit)).toList();
            int ended = 0;
            OpRecord highest = null;
            for (OpRecord hold : byEntry) {
                while (ended < byExit.size() && byExit.get(ended).exit() < hold.entry()) {
                    OpRecord before = byExit.get(ended++);
                    if (highest == null || before.token() > highest.token()) {
                        highest = before;
                    }
                }
                if (highest != null && hold.token() <= highest.token()) {
                    Finding finding = new Finding("TOKEN", hold.holder() + " got token " + hold.token() + " on "
                            + name.substring(2) + " after " + highest.holder() + " had held it with token "
                            + highest.token(), List.of(highest, hold));
                    (hold.lost() || highest.lost() ? excused : violations).add(finding);
                }
            }
        });
    }

    private void perOperation() {
        for (OpRecord op : ops) {
            if (op.outcome() == Outcome.UNFINISHED) {
                violations.add(new Finding("UNFINISHED", op.holder() + " was still in " + op.call()
                        + (op.held() ? " (inside its critical section)" : "") + " when its worker stopped",
                        List.of(op)));
            } else if (op.waitMs() >= 0) {
                long tookMs = (op.callEnd() - op.callStart()) / 1_000_000;
                long faultMs = faultMillisDuring(op.callStart(), op.callEnd());
                long allowedMs = op.waitMs() + CheckerSettings.WAIT_SLACK_MS + faultMs;
                if (tookMs > allowedMs) {
                    violations.add(new Finding("WAIT", op.holder() + " waited " + tookMs + " ms with a wait time of "
                            + op.waitMs() + " ms (allowed " + allowedMs + " ms, " + faultMs + " ms of it for faults)",
                            List.of(op)));
                }
            }
            if (op.outcome() == Outcome.ACQUIRED && "IllegalMonitorStateException".equals(op.release())
                    && !op.lost() && !forgottenByContract(op)) {
                violations.add(new Finding("RELEASE_REFUSED", op.holder() + " was refused a release as not holding "
                        + op.locks() + " after " + op.depth() + " successful acquisitions", List.of(op)));
            }
            if (op.release().startsWith("HELD_AFTER")) {
                violations.add(new Finding("GIVE_UP_LEAK", op.holder() + " still held the lock "
                        + "seconds after its acquisition ended " + op.outcome(), List.of(op)));
            }
        }
    }

    /**
     * An explicit lease that ran out and was not unlocked within one watchdog timeout after is
     * forgotten by contract: the late release then finds nothing held (README, "Lost leases").
     */
    private static boolean forgottenByContract(OpRecord op) {
        return op.leaseMs() > 0
                && (op.exit() - op.callStart()) / 1_000_000 > op.leaseMs() + CheckerSettings.WATCHDOG.toMillis();
    }

    private long faultMillisDuring(long from, long to) {
        long total = 0;
        for (FaultRecord fault : faults) {
            if (fault.start() > to) {
                break;
            }
            if (fault.end() >= from) {
                total += fault.millis();
            }
        }
        return total;
    }
}

package io.distlock.faults.checker;

import io.distlock.faults.checker.OpRecord.Outcome;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The oracle: judges a run's histories without asking the library anything. It finds
 * <ul>
 *   <li>{@code OVERLAP}: two holders inside one name at once where one hold is exclusive, unless an
 *       honest lease expiry explains it ({@link OverlapCheck}, {@link Excuse});</li>
 *   <li>{@code PERMITS}: more permits of one semaphore out at once than it has, unless honest
 *       lease expiries explain it ({@link PermitCheck});</li>
 *   <li>{@code TOKEN}: a fencing token that does not grow, never excused ({@link TokenCheck});</li>
 *   <li>{@code FIFO}: a fair lock serving a later waiter before an earlier one ({@link FairOrderCheck});</li>
 *   <li>{@code WAIT}: a call that took longer than its wait time plus
 *       {@link CheckerSettings#WAIT_SLACK_MS} plus the length of every fault in force during it;</li>
 *   <li>{@code LOCK_WAIT}: a {@code lock()} that waited on a free lock too long ({@link LockWaitCheck});</li>
 *   <li>{@code UNFINISHED}: an operation still running when its worker had to stop;</li>
 *   <li>{@code GIVE_UP_LEAK}: a holder whose acquisition was interrupted or cancelled still
 *       holding the lock seconds later;</li>
 *   <li>{@code RELEASE_REFUSED}: a release refused as "not held" ({@code IllegalMonitorStateException}
 *       that is not a {@code LockLostException}) although every acquisition it ends returned
 *       {@code true}: each successful acquisition is owed one release, unless the library reported
 *       its lease lost, or its explicit lease ran out more than one watchdog timeout before (either
 *       way the hold is forgotten by contract).</li>
 * </ul>
 * What is left in Redis after the run is added by the caller.
 */
final class HistoryChecker {

    private final List<OpRecord> ops;
    private final List<FaultRecord> faults;
    private final List<Finding> violations = new ArrayList<>();
    private final List<Excused> excused = new ArrayList<>();
    private long fairPairsJudged;

    /**
     * @param ops    every worker's records
     * @param faults the faults applied
     */
    HistoryChecker(List<OpRecord> ops, List<FaultRecord> faults) {
        this.ops = ops;
        this.faults = faults.stream().sorted(Comparator.comparingLong(FaultRecord::start)).toList();
    }

    /** Runs every check. */
    void check() {
        HonestExpiry expiry = new HonestExpiry(faults);
        OverlapCheck overlaps = new OverlapCheck(expiry);
        overlaps.check(ops);
        violations.addAll(overlaps.violations());
        excused.addAll(overlaps.excused());
        PermitCheck permits = new PermitCheck(expiry);
        permits.check(ops);
        violations.addAll(permits.violations());
        excused.addAll(permits.excused());
        violations.addAll(new TokenCheck().check(ops));
        FairOrderCheck fairOrder = new FairOrderCheck(faults);
        violations.addAll(fairOrder.check(ops));
        fairPairsJudged = fairOrder.judged();
        violations.addAll(new LockWaitCheck(faults).check(ops));
        perOperation();
    }

    /** @return the violations found */
    List<Finding> violations() {
        return violations;
    }

    /** @return how many pairs of fair-lock waiters the FIFO property judged */
    long fairPairsJudged() {
        return fairPairsJudged;
    }

    /** @return the overlaps an honest lease expiry explains, each with its excuse */
    List<Excused> excused() {
        return excused;
    }

    private void perOperation() {
        for (OpRecord op : ops) {
            if (op.outcome() == Outcome.UNFINISHED) {
                violations.add(new Finding("UNFINISHED", op.holder() + " was still in " + op.call()
                        + (op.held() ? " (inside its critical section)" : "") + " when its worker stopped",
                        List.of(op)));
            } else if (op.waitMs() >= 0) {
                long tookMs = (op.callEnd() - op.callStart()) / 1_000_000;
                long faultMs = FaultRecord.millisInForce(faults, op.callStart(), op.callEnd());
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
     * forgotten by contract: the late release then finds nothing held (docs/plain-java.md, "Lost leases").
     */
    private static boolean forgottenByContract(OpRecord op) {
        return op.leaseMs() > 0
                && (op.exit() - op.callStart()) / 1_000_000 > op.leaseMs() + CheckerSettings.WATCHDOG.toMillis();
    }
}

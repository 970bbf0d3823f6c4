package io.distlock.faults.checker;

import io.distlock.faults.checker.OpRecord.Outcome;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The oracle on hand-made histories: what it must find, and what it must not. Times in ms. */
class HistoryCheckerTest {

    private static final long MS = 1_000_000;

    private static OpRecord hold(String holder, LockKind kind, String lock, long entryMs, long exitMs, long token,
                                 boolean lost) {
        return new OpRecord(holder + "." + entryMs, 0, holder, Operation.Call.TRY_LOCK, kind, List.of(lock), 1_000, -1,
                entryMs * MS - MS, entryMs * MS, Outcome.ACQUIRED, 1, entryMs * MS, exitMs * MS, token, lost,
                lost ? "LOST" : "OK", "test");
    }

    private static HistoryChecker check(List<OpRecord> ops, List<FaultRecord> faults) {
        HistoryChecker checker = new HistoryChecker(ops, faults);
        checker.check();
        return checker;
    }

    @Test
    void overlappingExclusiveHoldsOfDifferentHoldersAreAViolation() {
        HistoryChecker checker = check(List.of(hold("a", LockKind.REENTRANT, "X:n0", 10, 20, -1, false),
                hold("b", LockKind.WRITE, "X:n0", 15, 25, -1, false)), List.of());
        assertThat(checker.violations()).extracting(Finding::kind).containsExactly("OVERLAP");
    }

    @Test
    void readersShareAndAHolderDoesNotConflictWithItselfAndOtherNamesDoNotMeet() {
        HistoryChecker checker = check(List.of(hold("a", LockKind.READ, "S:n0", 10, 20, -1, false),
                hold("b", LockKind.READ, "S:n0", 15, 25, -1, false),
                hold("c", LockKind.FAIR, "X:n1", 10, 20, -1, false),
                hold("c", LockKind.FAIR, "X:n1", 12, 18, -1, false),
                hold("d", LockKind.FAIR, "X:n2", 12, 18, -1, false)), List.of());
        assertThat(checker.violations()).isEmpty();
    }

    @Test
    void aReaderInsideAWritersSectionIsAViolation() {
        HistoryChecker checker = check(List.of(hold("a", LockKind.WRITE, "X:n0", 10, 20, -1, false),
                hold("b", LockKind.READ, "S:n0", 19, 25, -1, false)), List.of());
        assertThat(checker.violations()).extracting(Finding::kind).containsExactly("OVERLAP");
    }

    @Test
    void anOverlapIsExcusedOnlyWhereTheEarlierHolderWasToldItsLeaseWasLost() {
        HistoryChecker excused = check(List.of(hold("a", LockKind.REENTRANT, "X:n0", 10, 20, -1, true),
                hold("b", LockKind.REENTRANT, "X:n0", 15, 25, -1, false)), List.of());
        assertThat(excused.violations()).isEmpty();
        assertThat(excused.excused()).extracting(Finding::kind).containsExactly("OVERLAP");

        HistoryChecker laterWasTold = check(List.of(hold("a", LockKind.REENTRANT, "X:n0", 10, 20, -1, false),
                hold("b", LockKind.REENTRANT, "X:n0", 15, 25, -1, true)), List.of());
        assertThat(laterWasTold.violations()).extracting(Finding::kind).containsExactly("OVERLAP");
    }

    /** Granted before the other entered, frozen, told its lease was lost: it was the earlier holder. */
    @Test
    void aHolderToldItsLeaseWasLostCountsAsEarlierIfItsCallBeganFirst() {
        OpRecord frozen = new OpRecord("b.5", 0, "b", Operation.Call.TRY_LOCK, LockKind.REENTRANT, List.of("X:n0"),
                1_000, -1, 5 * MS, 15 * MS, Outcome.ACQUIRED, 1, 15 * MS, 25 * MS, -1, true, "LOST", "test");
        HistoryChecker checker = check(List.of(hold("a", LockKind.REENTRANT, "X:n0", 10, 20, -1, false), frozen),
                List.of());
        assertThat(checker.violations()).isEmpty();
        assertThat(checker.excused()).extracting(Finding::kind).containsExactly("OVERLAP");
    }

    @Test
    void aFencingTokenNotAboveAnEarlierHoldsIsAViolation() {
        HistoryChecker checker = check(List.of(hold("a", LockKind.FENCED, "X:n0", 10, 20, 5, false),
                hold("b", LockKind.FENCED, "X:n0", 30, 40, 6, false),
                hold("c", LockKind.FENCED, "X:n0", 50, 60, 6, false)), List.of());
        assertThat(checker.violations()).extracting(Finding::kind).containsExactly("TOKEN");
        assertThat(checker.violations().get(0).involved()).extracting(OpRecord::holder).containsExactly("b", "c");
    }

    @Test
    void aCallLongerThanItsWaitPlusTheBoundIsAViolationUnlessFaultsWereInForce() {
        long tookMs = 1_000 + CheckerSettings.WAIT_SLACK_MS + 500;
        OpRecord slow = new OpRecord("a.1", 0, "a", Operation.Call.TRY_LOCK, LockKind.REENTRANT, List.of("X:n0"),
                1_000, -1, 0, tookMs * MS, Outcome.NOT_ACQUIRED, 0, -1, -1, -1, false, "-", "test");
        assertThat(check(List.of(slow), List.of()).violations()).extracting(Finding::kind).containsExactly("WAIT");
        FaultRecord pause = new FaultRecord(FaultKind.DEBUG_SLEEP, "1000 ms", 100 * MS, 1_100 * MS);
        assertThat(check(List.of(slow), List.of(pause)).violations()).isEmpty();
    }
}

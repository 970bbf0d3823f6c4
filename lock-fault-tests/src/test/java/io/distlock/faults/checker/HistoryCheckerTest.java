package io.distlock.faults.checker;

import io.distlock.faults.checker.OpRecord.Outcome;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The oracle on hand-made histories: what it must find, and what it must not excuse. Times in ms. */
class HistoryCheckerTest {

    private static final long MS = 1_000_000;
    private static final long WATCHDOG = -1;
    /** How long a hand-made re-entry call takes. */
    private static final long REENTRY_MS = 5;

    /** A hand-made operation record: an acquisition that returned {@code true} unless said otherwise. */
    private static final class Op {
        private final String holder;
        private final LockKind kind;
        private final String lock;
        private Operation.Call call = Operation.Call.TRY_LOCK;
        private long waitMs = 1_000;
        private long leaseMs = WATCHDOG;
        private long callStart;
        /** Each re-entry's call, start and end in ms. */
        private final List<long[]> reentries = new ArrayList<>();
        private long callEnd = -1;
        private long entry = -1;
        private long exit = -1;
        private long token = -1;
        private int worker;
        private boolean lost;
        private Outcome outcome = Outcome.ACQUIRED;
        private String release = "OK";
        private long queued = -1;
        private long innerRelease = -1;

        private Op(String holder, LockKind kind, String lock) {
            this.holder = holder;
            this.kind = kind;
            this.lock = lock;
        }

        static Op of(String holder, LockKind kind, String lock) {
            return new Op(holder, kind, lock);
        }

        /** A hold called at {@code callStartMs}, inside from {@code entryMs} to {@code exitMs}. */
        Op held(long callStartMs, long entryMs, long exitMs) {
            callStart = callStartMs;
            callEnd = entryMs;
            entry = entryMs;
            exit = exitMs;
            return this;
        }

        /** The library said at {@code ms} that this acquisition was waiting (a fair one: queued in Redis). */
        Op queuedAt(long ms) {
            queued = ms;
            return this;
        }

        Op lease(long ms) {
            leaseMs = ms;
            return this;
        }

        Op reenteredAt(long ms) {
            return reenteredBetween(ms, ms + REENTRY_MS);
        }

        /** A re-entry call that began at {@code startMs} and returned {@code true} at {@code endMs}. */
        Op reenteredBetween(long startMs, long endMs) {
            reentries.add(new long[] {startMs, endMs});
            return this;
        }

        /** The holds but the last were given back from {@code ms} on. */
        Op innerReleaseAt(long ms) {
            innerRelease = ms;
            return this;
        }

        Op worker(int index) {
            worker = index;
            return this;
        }

        Op token(long value) {
            token = value;
            return this;
        }

        Op toldLost() {
            lost = true;
            release = "LOST";
            return this;
        }

        Op call(Operation.Call how, long wait) {
            call = how;
            waitMs = wait;
            return this;
        }

        /** An acquisition that ended {@code outcome} at {@code callEndMs} without a critical section. */
        Op ended(long callStartMs, long callEndMs, Outcome how) {
            callStart = callStartMs;
            callEnd = callEndMs;
            outcome = how;
            release = "-";
            return this;
        }

        OpRecord record() {
            List<LeaseCall> leaseCalls = new ArrayList<>(List.of(new LeaseCall(callStart * MS, callEnd * MS)));
            reentries.forEach(call -> leaseCalls.add(new LeaseCall(call[0] * MS, call[1] * MS)));
            long done = Math.max(callEnd, exit);
            return new OpRecord(holder + "." + callStart, worker, holder, call, kind, List.of(lock), waitMs, leaseMs,
                    callStart * MS, callEnd * MS, outcome, entry >= 0 ? 1 + reentries.size() : 0, entry < 0 ? -1 : entry * MS,
                    exit < 0 ? -1 : exit * MS, token, lost, release, "test", leaseCalls, 0, done * MS,
                    queued < 0 ? -1 : queued * MS, innerRelease < 0 ? -1 : innerRelease * MS);
        }
    }

    private static FaultRecord fault(FaultKind kind, long startMs, long endMs, List<Integer> servers, int worker) {
        return new FaultRecord(kind, "test", startMs * MS, endMs * MS, servers, worker);
    }

    private static FaultRecord frozen(int worker, long startMs, long endMs) {
        return fault(FaultKind.WORKER_PAUSE, startMs, endMs, List.of(), worker);
    }

    private static HistoryChecker check(List<Op> ops, FaultRecord... faults) {
        HistoryChecker checker = new HistoryChecker(ops.stream().map(Op::record).toList(), List.of(faults));
        checker.check();
        return checker;
    }

    @Test
    void overlappingExclusiveHoldsOfDifferentHoldersAreAViolation() {
        HistoryChecker checker = check(List.of(Op.of("a", LockKind.REENTRANT, "X:n0").held(9, 10, 20),
                Op.of("b", LockKind.WRITE, "X:n0").held(14, 15, 25)));
        assertThat(checker.violations()).extracting(Finding::kind).containsExactly("OVERLAP");
    }

    @Test
    void readersShareAndAHolderDoesNotConflictWithItselfAndOtherNamesDoNotMeet() {
        HistoryChecker checker = check(List.of(Op.of("a", LockKind.READ, "S:n0").held(9, 10, 20),
                Op.of("b", LockKind.READ, "S:n0").held(14, 15, 25),
                Op.of("c", LockKind.REENTRANT, "X:n1").held(9, 10, 20),
                Op.of("c", LockKind.REENTRANT, "X:n1").held(11, 12, 18),
                Op.of("d", LockKind.REENTRANT, "X:n2").held(11, 12, 18)));
        assertThat(checker.violations()).isEmpty();
    }

    @Test
    void aPermitMoreThanTheSemaphoreHasIsAViolationAndLocksOfItsNameDoNotCount() {
        HistoryChecker checker = check(List.of(Op.of("a", LockKind.SEMAPHORE, "P:n0").held(9, 10, 30),
                Op.of("b", LockKind.SEMAPHORE, "P:n0").held(11, 12, 30),
                Op.of("c", LockKind.REENTRANT, "X:n0").held(13, 14, 30),
                Op.of("d", LockKind.SEMAPHORE, "P:n0").held(20, 30, 40)));
        assertThat(checker.violations()).as("two permits, then one more as the others left").isEmpty();

        HistoryChecker third = check(List.of(Op.of("a", LockKind.SEMAPHORE, "P:n0").held(9, 10, 30),
                Op.of("b", LockKind.SEMAPHORE, "P:n0").held(11, 12, 30),
                Op.of("c", LockKind.SEMAPHORE, "P:n0").held(20, 29, 40)));
        assertThat(third.violations()).singleElement().satisfies(found -> {
            assertThat(found.kind()).isEqualTo("PERMITS");
            assertThat(found.message()).contains("3 permits of semaphore n0 (of 2)");
        });
    }

    /** A holder's second permit counts until its inner release began. */
    @Test
    void aHoldersSecondPermitCountsUntilItsInnerRelease() {
        Op twoPermits = Op.of("a", LockKind.SEMAPHORE, "P:n0").reenteredAt(15).innerReleaseAt(50).held(9, 10, 100);
        HistoryChecker during = check(List.of(twoPermits, Op.of("b", LockKind.SEMAPHORE, "P:n0").held(30, 40, 60)));
        assertThat(during.violations()).extracting(Finding::kind).containsExactly("PERMITS");

        HistoryChecker after = check(List.of(twoPermits, Op.of("b", LockKind.SEMAPHORE, "P:n0").held(30, 50, 60)));
        assertThat(after.violations()).isEmpty();
    }

    /**
     * A thread whose explicit lease ran out while it waited for one more permit gets a fresh permit
     * (its earlier ones are gone with the lease): three grants, but never three permits at once.
     */
    @Test
    void aHoldersOwnPermitsThatCouldHaveRunOutBeforeItsNextGrantDoNotCount() {
        Op lapsedWhileWaiting = Op.of("a", LockKind.SEMAPHORE, "P:n0").lease(600).reenteredAt(15)
                .reenteredBetween(100, 1_000).innerReleaseAt(1_500).held(0, 10, 2_000);
        HistoryChecker checker = check(List.of(lapsedWhileWaiting));
        assertThat(checker.violations()).isEmpty();
        assertThat(checker.excused()).singleElement()
                .satisfies(found -> assertThat(found.finding().kind()).isEqualTo("PERMITS"));

        Op grantedWithLeaseLeft = Op.of("a", LockKind.SEMAPHORE, "P:n0").lease(600).reenteredAt(15)
                .reenteredBetween(100, 400).innerReleaseAt(1_500).held(0, 10, 2_000);
        assertThat(check(List.of(grantedWithLeaseLeft)).violations()).extracting(Finding::kind)
                .containsExactly("PERMITS");
    }

    @Test
    void aPermitOutPastItsExplicitLeaseExcusesTheExcessOnlyOnceItCouldHaveRunOut() {
        Op lapsed = Op.of("a", LockKind.SEMAPHORE, "P:n0").lease(3_000).held(0, 10, 5_000);
        Op other = Op.of("b", LockKind.SEMAPHORE, "P:n0").held(100, 200, 5_000);
        HistoryChecker excused = check(List.of(lapsed, other,
                Op.of("c", LockKind.SEMAPHORE, "P:n0").held(2_000, 3_200, 3_300)));
        assertThat(excused.violations()).isEmpty();
        assertThat(excused.excused()).singleElement()
                .satisfies(found -> assertThat(found.finding().kind()).isEqualTo("PERMITS"));

        HistoryChecker tooEarly = check(List.of(lapsed, other,
                Op.of("c", LockKind.SEMAPHORE, "P:n0").held(2_000, 2_800, 3_300)));
        assertThat(tooEarly.violations()).extracting(Finding::kind).containsExactly("PERMITS");
    }

    @Test
    void aReaderInsideAWritersSectionIsAViolation() {
        HistoryChecker checker = check(List.of(Op.of("a", LockKind.WRITE, "X:n0").held(9, 10, 20),
                Op.of("b", LockKind.READ, "S:n0").held(18, 19, 25)));
        assertThat(checker.violations()).extracting(Finding::kind).containsExactly("OVERLAP");
    }

    /** A lock.lua that takes over a held lock makes the victim's unlock() report the loss: no excuse. */
    @Test
    void theToldLostVictimOfATakeoverWithLeaseLeftIsAViolation() {
        HistoryChecker checker = check(List.of(Op.of("victim", LockKind.REENTRANT, "X:n0").lease(5_000)
                        .held(0, 10, 2_000).toldLost(),
                Op.of("intruder", LockKind.REENTRANT, "X:n0").held(900, 1_000, 1_500)));
        assertThat(checker.violations()).extracting(Finding::kind).containsExactly("OVERLAP");
        assertThat(checker.excused()).isEmpty();
    }

    @Test
    void anOverlapAfterAnExplicitLeaseCouldRunOutIsExcusedWithItsNumbers() {
        Op lapsed = Op.of("a", LockKind.REENTRANT, "X:n0").lease(3_000).held(0, 10, 5_000);
        HistoryChecker excused = check(List.of(lapsed, Op.of("b", LockKind.REENTRANT, "X:n0").held(2_000, 3_000, 3_100)));
        assertThat(excused.violations()).isEmpty();
        assertThat(excused.excused()).singleElement().satisfies(found -> {
            assertThat(found.excuse().allowed()).isTrue();
            assertThat(found.excuse().text()).contains("explicit lease of 3000 ms", "entered 3000 ms after");
        });

        HistoryChecker tooEarly = check(List.of(lapsed, Op.of("b", LockKind.REENTRANT, "X:n0").held(2_000, 2_850, 3_100)));
        assertThat(tooEarly.violations()).extracting(Finding::kind).containsExactly("OVERLAP");
    }

    @Test
    void aReEntryWithAnExplicitLeaseCountsTheLeaseFromTheLastReEntryCall() {
        HistoryChecker checker = check(List.of(Op.of("a", LockKind.REENTRANT, "X:n0").lease(3_000).reenteredAt(2_000)
                        .held(0, 10, 6_000),
                Op.of("b", LockKind.REENTRANT, "X:n0").held(3_000, 3_500, 3_600)));
        assertThat(checker.violations()).extracting(Finding::kind).containsExactly("OVERLAP");
    }

    /** Frozen past its watchdog lease, it re-entered after the other came in: that re-entry changes nothing before. */
    @Test
    void aReEntryAfterTheOtherEnteredDoesNotCount() {
        HistoryChecker checker = check(List.of(Op.of("b", LockKind.REENTRANT, "X:n0").worker(1).reenteredAt(5_100)
                        .held(0, 5_000, 5_200),
                Op.of("a", LockKind.REENTRANT, "X:n0").held(4_600, 4_700, 5_150)), frozen(1, 100, 4_900));
        assertThat(checker.violations()).isEmpty();
        assertThat(checker.excused()).singleElement()
                .satisfies(found -> assertThat(found.excuse().leaseFrom()).isZero());

        HistoryChecker stillRunning = check(List.of(Op.of("b", LockKind.REENTRANT, "X:n0").worker(1).reenteredAt(4_698)
                        .held(0, 4_690, 5_200),
                Op.of("a", LockKind.REENTRANT, "X:n0").held(4_600, 4_700, 5_150)), frozen(1, 100, 4_600));
        assertThat(stillRunning.violations()).as("a re-entry that had not returned when the other entered").isEmpty();
    }

    @Test
    void aWatchdogHoldOverlappedWithNoFaultInForceIsAViolation() {
        HistoryChecker checker = check(List.of(Op.of("a", LockKind.REENTRANT, "X:n0").held(0, 10, 10_000),
                Op.of("b", LockKind.REENTRANT, "X:n0").worker(1).held(4_000, 5_000, 5_100)));
        assertThat(checker.violations()).extracting(Finding::kind).containsExactly("OVERLAP");
    }

    @Test
    void aWatchdogHoldMayLapseOnlyWhileAFaultCouldBlockItsRenewalsForALease() {
        List<Op> ops = List.of(Op.of("a", LockKind.REENTRANT, "X:n0").held(0, 10, 10_000),
                Op.of("b", LockKind.REENTRANT, "X:n0").worker(1).held(4_000, 5_500, 5_600));

        HistoryChecker frozenHolder = check(ops, frozen(0, 1_000, 5_000));
        assertThat(frozenHolder.violations()).isEmpty();
        assertThat(frozenHolder.excused()).singleElement()
                .satisfies(found -> assertThat(found.excuse().text()).contains("watchdog lease", "WORKER_PAUSE"));

        assertThat(check(ops, frozen(1, 1_000, 5_000)).violations()).as("another worker frozen")
                .extracting(Finding::kind).containsExactly("OVERLAP");
        assertThat(check(ops, fault(FaultKind.KILL_PUBSUB, 1_000, 2_000, List.of(0), -1)).violations())
                .as("wake-up connections killed").extracting(Finding::kind).containsExactly("OVERLAP");
        assertThat(check(ops, fault(FaultKind.CLIENT_PAUSE_ALL, 1_000, 1_300, List.of(0), -1)).violations())
                .as("a pause shorter than a renewal interval").extracting(Finding::kind).containsExactly("OVERLAP");
        assertThat(check(ops, fault(FaultKind.DEBUG_SLEEP, 1_000, 2_000, List.of(1, 2), -1)).violations())
                .as("other servers asleep").extracting(Finding::kind).containsExactly("OVERLAP");
        assertThat(check(ops, frozen(0, -9_000, -5_000)).violations()).as("a freeze before the hold")
                .extracting(Finding::kind).containsExactly("OVERLAP");
        assertThat(check(ops, fault(FaultKind.CLIENT_PAUSE_ALL, 1_000, 1_800, List.of(0), -1),
                fault(FaultKind.DEBUG_SLEEP, 3_000, 3_800, List.of(0), -1)).violations())
                .as("two faults that chain into a lease-long stretch").isEmpty();
        assertThat(check(List.of(Op.of("a", LockKind.REENTRANT, "X:n0").held(0, 10, 20_000),
                        Op.of("b", LockKind.REENTRANT, "X:n0").worker(1).held(14_000, 15_000, 15_100)),
                fault(FaultKind.CLIENT_PAUSE_ALL, 1_000, 2_000, List.of(0), -1), frozen(0, 8_000, 12_000))
                .excused()).as("the most telling of two chains").singleElement()
                .satisfies(found -> assertThat(found.excuse().faults()).extracting(FaultRecord::kind)
                        .containsExactly(FaultKind.WORKER_PAUSE));
    }

    /** Granted first, frozen before it could stamp its entry, its watchdog lease lapsed: the later entrant lapsed. */
    @Test
    void theHolderThatEnteredLaterMayBeTheOneWhoseLeaseLapsed() {
        HistoryChecker checker = check(List.of(Op.of("b", LockKind.REENTRANT, "X:n0").worker(1).held(0, 4_600, 4_700),
                Op.of("a", LockKind.REENTRANT, "X:n0").held(3_400, 3_500, 5_000)), frozen(1, 100, 4_500));
        assertThat(checker.violations()).isEmpty();
        assertThat(checker.excused()).singleElement()
                .satisfies(found -> assertThat(found.excuse().lapsed().holder()).isEqualTo("b"));
    }

    @Test
    void aFencingTokenNotAboveAnEarlierHoldsIsAViolationNeverExcused() {
        HistoryChecker checker = check(List.of(Op.of("a", LockKind.FENCED, "X:n0").held(9, 10, 20).token(5),
                        Op.of("b", LockKind.FENCED, "X:n0").held(29, 30, 40).token(6).toldLost(),
                        Op.of("c", LockKind.FENCED, "X:n0").lease(3_000).held(49, 50, 60).token(6)),
                frozen(0, 0, 100));
        assertThat(checker.violations()).extracting(Finding::kind).containsExactly("TOKEN");
        assertThat(checker.violations().get(0).involved()).extracting(OpRecord::holder).containsExactly("b", "c");
        assertThat(checker.excused()).isEmpty();
    }

    /** Its call began before the other hold ended: its grant, and token, may well have come first. */
    @Test
    void aSmallerTokenOfAHoldWhoseCallBeganBeforeTheOtherEndedIsNoInversion() {
        HistoryChecker checker = check(List.of(Op.of("a", LockKind.FENCED, "X:n0").held(9, 10, 20).token(5),
                Op.of("b", LockKind.FENCED, "X:n0").held(5, 40, 50).token(4)), frozen(0, 6, 35));
        assertThat(checker.violations()).extracting(Finding::kind).doesNotContain("TOKEN");
    }

    @Test
    void aFairWaiterServedBeforeOneQueuedBeforeItsCallIsAViolation() {
        Op first = Op.of("a", LockKind.FAIR, "X:n0").held(0, 3_000, 3_100).queuedAt(400);
        Op second = Op.of("b", LockKind.FAIR, "X:n0").held(600, 1_000, 1_100);
        assertThat(check(List.of(first, second)).violations()).extracting(Finding::kind).containsExactly("FIFO");

        assertThat(check(List.of(Op.of("a", LockKind.FAIR, "X:n0").held(0, 3_000, 3_100).queuedAt(700), second))
                .violations()).as("queued only after the second one's call began: its first round trip "
                        + "may have come after the second one's").isEmpty();
        assertThat(check(List.of(Op.of("a", LockKind.FAIR, "X:n0").held(0, 3_000, 3_100), second)).violations())
                .as("never said to wait: maybe stalled before its first attempt").isEmpty();
        assertThat(check(List.of(first, second), frozen(0, 2_000, 2_100)).violations())
                .as("the first one's process frozen while it waited").isEmpty();
        assertThat(check(List.of(first, second), fault(FaultKind.KILL_NORMAL, 2_000, 2_100, List.of(0), -1))
                .violations()).as("its connection killed while it waited").isEmpty();
        assertThat(check(List.of(first, second), frozen(1, 2_000, 2_100)).violations())
                .as("another process frozen").extracting(Finding::kind).containsExactly("FIFO");
        assertThat(check(List.of(Op.of("a", LockKind.FAIR, "X:n0").call(Operation.Call.ASYNC_PAIR, 1_000)
                .held(0, 3_000, 3_100).queuedAt(400), second)).violations()).as("overlapping async calls of one holder")
                .extracting(Finding::kind).containsExactly("FIFO");
        assertThat(check(List.of(Op.of("a", LockKind.FAIR, "X:n0").held(0, 1_000, 1_100).queuedAt(400),
                second.held(600, 1_200, 1_300))).violations()).as("served in order").isEmpty();
        assertThat(check(List.of(Op.of("a", LockKind.REENTRANT, "X:n0").held(0, 3_000, 3_100).queuedAt(400), second))
                .violations()).as("not a fair lock").extracting(Finding::kind).doesNotContain("FIFO");
    }

    @Test
    void aLockCallThatWaitsLongOnAFreeLockIsAViolation() {
        long longerThanTheSlack = CheckerSettings.WAIT_SLACK_MS + 1_000;
        Op waiter = Op.of("a", LockKind.WRITE, "X:n0").call(Operation.Call.LOCK, -1).held(0, longerThanTheSlack,
                longerThanTheSlack + 10);
        assertThat(check(List.of(waiter)).violations()).extracting(Finding::kind).containsExactly("LOCK_WAIT");
        assertThat(check(List.of(waiter, Op.of("b", LockKind.READ, "S:n0").held(0, 10, longerThanTheSlack - 500)))
                .violations()).as("a reader kept the writer out").isEmpty();
        assertThat(check(List.of(waiter), fault(FaultKind.DEBUG_SLEEP, 100, 1_600, List.of(0), -1)).violations())
                .as("a fault's length is allowed").isEmpty();

        Op reader = Op.of("a", LockKind.READ, "S:n0").call(Operation.Call.LOCK, -1).held(0, longerThanTheSlack,
                longerThanTheSlack + 10);
        assertThat(check(List.of(reader, Op.of("b", LockKind.READ, "S:n0").held(0, 10, longerThanTheSlack - 500)))
                .violations()).as("another reader does not keep a reader out").extracting(Finding::kind)
                .containsExactly("LOCK_WAIT");
    }

    /** A semaphore of two permits is free while fewer than two are out; a holder of two fills it alone. */
    @Test
    void aLockCallOnASemaphoreWaitsLegitimatelyOnlyWhileEveryPermitIsOut() {
        long longerThanTheSlack = CheckerSettings.WAIT_SLACK_MS + 1_000;
        Op waiter = Op.of("a", LockKind.SEMAPHORE, "P:n0").call(Operation.Call.LOCK, -1).held(0, longerThanTheSlack,
                longerThanTheSlack + 10);
        Op one = Op.of("b", LockKind.SEMAPHORE, "P:n0").held(0, 10, longerThanTheSlack - 100);
        assertThat(check(List.of(waiter, one, Op.of("c", LockKind.REENTRANT, "X:n0").held(0, 10, longerThanTheSlack)))
                .violations()).as("one permit out, and a lock of the same name").extracting(Finding::kind)
                .containsExactly("LOCK_WAIT");
        assertThat(check(List.of(waiter, one, Op.of("c", LockKind.SEMAPHORE, "P:n0").held(0, 10, longerThanTheSlack)))
                .violations()).as("both permits out").isEmpty();
        assertThat(check(List.of(waiter, Op.of("b", LockKind.SEMAPHORE, "P:n0").reenteredAt(20).innerReleaseAt(500)
                .held(0, 10, longerThanTheSlack - 100))).violations()).as("one holder with both permits").isEmpty();
    }

    @Test
    void aCallLongerThanItsWaitPlusTheBoundIsAViolationUnlessFaultsWereInForce() {
        long tookMs = 1_000 + CheckerSettings.WAIT_SLACK_MS + 500;
        Op slow = Op.of("a", LockKind.REENTRANT, "X:n0").ended(0, tookMs, Outcome.NOT_ACQUIRED);
        assertThat(check(List.of(slow)).violations()).extracting(Finding::kind).containsExactly("WAIT");
        assertThat(check(List.of(slow), fault(FaultKind.DEBUG_SLEEP, 100, 1_100, List.of(0), -1)).violations())
                .isEmpty();
    }

    /** The audit the checker's report relies on: an excuse that breaks the rule is not allowed. */
    @Test
    void anExcuseIsAllowedOnlyByTheRule() {
        OpRecord watchdogHold = Op.of("a", LockKind.REENTRANT, "X:n0").held(0, 10, 10_000).record();
        OpRecord explicitHold = Op.of("a", LockKind.REENTRANT, "X:n0").lease(3_000).held(0, 10, 10_000).record();
        long lease = CheckerSettings.WATCHDOG.toMillis();
        assertThat(new Excuse(watchdogHold, lease, 0, 5_000 * MS, List.of()).allowed()).as("no fault").isFalse();
        assertThat(new Excuse(watchdogHold, lease, 0, 5_000 * MS, List.of(frozen(1, 1_000, 5_000))).allowed())
                .as("another worker's freeze").isFalse();
        assertThat(new Excuse(watchdogHold, lease, 0, 5_000 * MS, List.of(frozen(0, 1_000, 5_000))).allowed())
                .as("its own worker's freeze").isTrue();
        assertThat(new Excuse(explicitHold, 3_000, 0, 2_000 * MS, List.of()).allowed()).as("lease left").isFalse();
        assertThat(new Excuse(explicitHold, 1_000, 0, 2_000 * MS, List.of()).allowed()).as("a lease not its own")
                .isFalse();
        assertThat(new Excuse(explicitHold, 3_000, -5_000 * MS, 3_000 * MS, List.of()).allowed())
                .as("a lease start not its own").isFalse();
        assertThat(new Excuse(explicitHold, 3_000, 0, 3_000 * MS, List.of()).allowed()).isTrue();
    }
}

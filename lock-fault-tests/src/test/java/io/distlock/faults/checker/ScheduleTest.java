package io.distlock.faults.checker;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/** The same run seed plans the same operations; other seeds, workers and threads plan others. */
class ScheduleTest {

    private static List<Operation> plan(long seed, int worker, int thread) {
        Schedule schedule = new Schedule(seed, LoadProfile.MIXED, worker, thread);
        return IntStream.range(0, 400).mapToObj(i -> schedule.next()).toList();
    }

    @Test
    void theSameSeedReplaysTheSameOperations() {
        assertThat(plan(123, 1, 2)).isEqualTo(plan(123, 1, 2));
    }

    @Test
    void otherSeedsWorkersAndThreadsPlanOtherOperations() {
        assertThat(plan(123, 1, 2)).isNotEqualTo(plan(124, 1, 2))
                .isNotEqualTo(plan(123, 0, 2))
                .isNotEqualTo(plan(123, 1, 3));
    }

    @Test
    void thePlanCoversEveryCallAndKindAndSortsMultiLockNames() {
        List<Operation> plan = plan(7, 0, 0);
        assertThat(plan).extracting(Operation::call).contains(Operation.Call.values());
        assertThat(plan).extracting(Operation::kind).contains(LockKind.values());
        assertThat(plan).filteredOn(op -> op.kind() == LockKind.MULTI)
                .allSatisfy(op -> assertThat(op.names()).isSorted().doesNotHaveDuplicates());
        assertThat(plan).filteredOn(op -> op.kind() == LockKind.RED)
                .allSatisfy(op -> assertThat(CheckerSettings.RED_NAMES).containsAll(op.names()));
        assertThat(plan).as("holds that outlive several watchdog renewals")
                .anyMatch(op -> op.leaseMs() < 0 && op.holdMs() >= 4_000);
        assertThat(plan).as("releases after a short explicit lease ran out")
                .anyMatch(op -> op.leaseMs() > 0 && op.holdMs() > op.leaseMs());
    }

    /** Two threads each holding a permit and asking for another without a wait limit would wait forever. */
    @Test
    void semaphoreReEntriesAlwaysHaveAWaitLimit() {
        Schedule schedule = new Schedule(7, LoadProfile.SEMAPHORE, 0, 0);
        List<Operation> plan = IntStream.range(0, 500).mapToObj(i -> schedule.next()).toList();
        assertThat(plan).extracting(Operation::kind).containsOnly(LockKind.SEMAPHORE);
        assertThat(plan).filteredOn(op -> op.call() == Operation.Call.LOCK).isNotEmpty()
                .allSatisfy(op -> assertThat(op.depth()).isEqualTo(1));
        assertThat(plan).as("a thread takes several permits").anyMatch(op -> op.depth() > 1);
    }

    @Test
    void aFocusedProfileDrawsOnlyItsKindsAndNames() {
        Schedule schedule = new Schedule(7, LoadProfile.HAND_OFF, 0, 0);
        List<Operation> plan = IntStream.range(0, 200).mapToObj(i -> schedule.next()).toList();
        assertThat(plan).extracting(Operation::kind).containsOnly(LockKind.REENTRANT, LockKind.FENCED);
        assertThat(plan).allSatisfy(op -> assertThat(op.names()).containsExactly("n0"));
    }
}

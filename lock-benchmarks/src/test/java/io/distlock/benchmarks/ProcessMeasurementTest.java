package io.distlock.benchmarks;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/** How merged acquisition records of several processes are counted, on hand-made records. */
@Timeout(10)
class ProcessMeasurementTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void recordsAreMergedByTimeAndStreaksAndHandOffsCountedPerName() {
        List<AcquisitionRecord> records = new ArrayList<>(List.of(
                // lock 0, in time order: p0 p0 p0 p1 p0 (the list is deliberately out of order)
                new AcquisitionRecord(1, 0, 40, 7_000_000),
                new AcquisitionRecord(0, 0, 10, 1_000_000),
                new AcquisitionRecord(0, 0, 50, 2_000_000),
                new AcquisitionRecord(0, 0, 20, 1_000_000),
                new AcquisitionRecord(0, 0, 30, 3_000_000),
                // lock 1, interleaved with lock 0 in time: p1 p1, a streak of its own
                new AcquisitionRecord(1, 1, 25, 1_000_000),
                new AcquisitionRecord(1, 1, 35, 1_000_000)));

        ProcessMeasurement measured = ProcessMeasurement.of("test", 2, 2, SECOND, records);

        assertThat(measured.acquisitions()).isEqualTo(7);
        assertThat(measured.crossHandOffs()).as("p0 -> p1 and p1 -> p0 on lock 0; lock 1 never moved")
                .isEqualTo(2);
        assertThat(measured.longestStreak()).isEqualTo(3);
        assertThat(measured.perProcess()).containsExactly(4, 3);
        assertThat(measured.sharePercent(0)).isCloseTo(400.0 / 7, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(measured.acquisitionsPerSecond()).isEqualTo(7.0);
        assertThat(measured.crossHandOffsPerSecond()).isEqualTo(2.0);
        assertThat(measured.maxWaitMillis()).isEqualTo(7.0);
        assertThat(measured.waits().p99Nanos()).isEqualTo(7_000_000);
    }

    @Test
    void aWindowWithoutAcquisitionsIsAnError() {
        assertThatIllegalStateException().isThrownBy(() -> ProcessMeasurement.of("test", 1, 2, SECOND,
                new ArrayList<>())).withMessageContaining("no acquisition in the window");
    }
}

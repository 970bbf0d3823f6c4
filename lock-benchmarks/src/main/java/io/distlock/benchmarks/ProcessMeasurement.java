package io.distlock.benchmarks;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * What one backend achieved in one case of the {@link Scenario#PROCESSES} scenario, from the
 * merged acquisition records of all its child JVMs. A <em>hand-off to another JVM</em> is an
 * acquisition of a lock name whose previous acquisition (of that name) was made by another
 * process; a <em>streak</em> is a run of acquisitions of one name by one process.
 *
 * @param backend          the backend's name
 * @param names            how many lock names the threads spread over
 * @param windowNanos      length of the measurement window
 * @param acquisitions     acquisitions in the window, all names and processes together
 * @param crossHandOffs    acquisitions that took a name from another process
 * @param longestStreak    longest run of acquisitions of one name by one process
 * @param perProcess       acquisitions per process, indexed by process
 * @param waits            percentiles of the time inside {@code lock()}
 * @param maxWaitNanos     the longest time inside {@code lock()}
 */
// A measurement is never compared: perProcess is the counts as recorded, which the printer reads.
@SuppressWarnings("ArrayRecordComponent")
public record ProcessMeasurement(String backend, int names, long windowNanos, long acquisitions, long crossHandOffs,
                                 long longestStreak, long[] perProcess, Latency waits, long maxWaitNanos) {

    /**
     * @param backend     the backend's name
     * @param names       how many lock names there were
     * @param processes   how many processes recorded
     * @param windowNanos length of the measurement window
     * @param records     the records of all processes, in any order; sorted in place
     * @return the measurement
     * @throws IllegalStateException if there is no record: nothing was acquired in the window
     */
    static ProcessMeasurement of(String backend, int names, int processes, long windowNanos,
                                 List<AcquisitionRecord> records) {
        if (records.isEmpty()) {
            throw new IllegalStateException(backend + ", " + names + " name(s): no acquisition in the window");
        }
        records.sort(Comparator.comparingLong(AcquisitionRecord::acquiredNanos));
        int[] lastProcess = new int[names];
        Arrays.fill(lastProcess, -1);
        long[] streak = new long[names];
        long[] perProcess = new long[processes];
        long[] waits = new long[records.size()];
        long crossHandOffs = 0;
        long longestStreak = 0;
        long maxWait = 0;
        for (int i = 0; i < records.size(); i++) {
            AcquisitionRecord record = records.get(i);
            int lock = record.lock();
            if (lastProcess[lock] == record.process()) {
                streak[lock]++;
            } else {
                if (lastProcess[lock] >= 0) {
                    crossHandOffs++;
                }
                lastProcess[lock] = record.process();
                streak[lock] = 1;
            }
            longestStreak = Math.max(longestStreak, streak[lock]);
            perProcess[record.process()]++;
            waits[i] = record.waitNanos();
            maxWait = Math.max(maxWait, record.waitNanos());
        }
        return new ProcessMeasurement(backend, names, windowNanos, records.size(), crossHandOffs, longestStreak,
                perProcess, Latency.of(waits), maxWait);
    }

    /** @return acquisitions per second, all processes together */
    public double acquisitionsPerSecond() {
        return acquisitions * 1e9 / windowNanos;
    }

    /** @return hand-offs to another JVM per second */
    public double crossHandOffsPerSecond() {
        return crossHandOffs * 1e9 / windowNanos;
    }

    /** @return the share of acquisitions that took the lock from another JVM, in percent */
    public double crossHandOffPercent() {
        return 100.0 * crossHandOffs / acquisitions;
    }

    /**
     * @param process a process index
     * @return that process's share of the acquisitions, in percent
     */
    public double sharePercent(int process) {
        return 100.0 * perProcess[process] / acquisitions;
    }

    /** @return the median time inside {@code lock()}, in milliseconds */
    public double p50WaitMillis() {
        return waits.p50Nanos() / 1e6;
    }

    /** @return the 99th percentile of the time inside {@code lock()}, in milliseconds */
    public double p99WaitMillis() {
        return waits.p99Nanos() / 1e6;
    }

    /** @return the longest time inside {@code lock()}, in milliseconds */
    public double maxWaitMillis() {
        return maxWaitNanos / 1e6;
    }
}

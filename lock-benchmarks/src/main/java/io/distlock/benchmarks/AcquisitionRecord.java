package io.distlock.benchmarks;

import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;

/**
 * One acquisition in the {@link Scenario#PROCESSES} scenario, as a child JVM records it. Times come
 * from {@link System#nanoTime()}, which on Linux reads {@code CLOCK_MONOTONIC}: one clock for every
 * process of the machine, so the records of all children can be merged by time. Since the holder
 * takes {@code acquiredNanos} before it unlocks and the next holder takes its own after it got the
 * lock, the order of the times is the order in which the lock was held.
 *
 * @param process       index of the child JVM, from 0
 * @param lock          index of the lock name, from 0
 * @param acquiredNanos when {@code lock()} returned
 * @param waitNanos     time spent inside {@code lock()}
 */
public record AcquisitionRecord(int process, int lock, long acquiredNanos, long waitNanos) {

    /**
     * Writes this record without its process (the file it goes to names the process).
     *
     * @param out where to
     * @throws IOException if writing fails
     */
    void writeTo(DataOutput out) throws IOException {
        out.writeInt(lock);
        out.writeLong(acquiredNanos);
        out.writeLong(waitNanos);
    }

    /**
     * Reads every record {@link #writeTo} wrote to a stream.
     *
     * @param in      the stream, read to its end
     * @param process the process that wrote it
     * @param into    receives the records
     * @throws IOException if reading fails or the stream ends inside a record
     */
    static void readAll(InputStream in, int process, List<AcquisitionRecord> into) throws IOException {
        DataInputStream data = new DataInputStream(in);
        while (true) {
            int lock;
            try {
                lock = data.readInt();
            } catch (EOFException end) {
                return;
            }
            into.add(new AcquisitionRecord(process, lock, data.readLong(), data.readLong()));
        }
    }
}

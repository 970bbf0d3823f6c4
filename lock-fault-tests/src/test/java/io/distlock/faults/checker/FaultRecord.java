package io.distlock.faults.checker;

/**
 * One fault the injector applied, with the time it was in force ({@link System#nanoTime()}).
 *
 * @param kind   what was done
 * @param detail its parameters, e.g. the paused worker or the delay
 * @param start  when it began
 * @param end    when it ended (for instant faults, such as a killed connection, a little after start)
 */
public record FaultRecord(FaultKind kind, String detail, long start, long end) {

    /** @return how long the fault was in force, in ms */
    public long millis() {
        return (end - start) / 1_000_000;
    }
}

package io.distlock.faults.checker;

import java.util.List;

/**
 * One fault the injector applied, with the time it was in force ({@link System#nanoTime()}) and
 * what it hit.
 *
 * @param kind    what was done
 * @param detail  its parameters, e.g. the paused worker or the delay
 * @param start   when it began
 * @param end     when it ended (for instant faults, such as a killed connection, a little after start)
 * @param servers the Redis servers it hit, by index (0 is the Redis under test; 0..2 are the
 *                RedLock masters); empty for faults of the proxy or of a worker
 * @param worker  the worker JVM it froze; -1 for every other fault
 */
public record FaultRecord(FaultKind kind, String detail, long start, long end, List<Integer> servers, int worker) {

    /** The index of the Redis under test among the servers. */
    static final int MAIN_SERVER = 0;

    /** @return how long the fault was in force, in ms */
    public long millis() {
        return (end - start) / 1_000_000;
    }

    /** @return whether the fault was in force at some moment of {@code [from, to]} */
    boolean inForceDuring(long from, long to) {
        return start <= to && end >= from;
    }

    /**
     * @param faults faults of a run
     * @param from   start of a period ({@link System#nanoTime()})
     * @param to     its end
     * @return the summed length, in ms, of every fault in force at some moment of the period: what
     *         a call of that period may take longer than its bound
     */
    static long millisInForce(List<FaultRecord> faults, long from, long to) {
        return faults.stream().filter(fault -> fault.inForceDuring(from, to)).mapToLong(FaultRecord::millis).sum();
    }

    /**
     * Whether the fault could hold up or break the commands of {@code op}'s client, or its process:
     * a pause or sleep of a server it holds on, its command connections killed, the proxy its
     * client goes through delaying or dropping replies, or its own JVM frozen. So it could keep the
     * watchdog from renewing the lease of that hold, or a waiter from keeping its fair-queue place.
     * A killed pub/sub connection never can: a waiter that misses a wake-up looks again by itself.
     *
     * @param op an operation
     * @return whether the fault could hinder it
     */
    boolean hinders(OpRecord op) {
        return switch (kind) {
            case CLIENT_PAUSE_ALL, CLIENT_PAUSE_WRITE, DEBUG_SLEEP, KILL_NORMAL ->
                    op.kind() == LockKind.RED ? !servers.isEmpty() : servers.contains(MAIN_SERVER);
            case PROXY_DELAY, PROXY_DROP -> op.kind() != LockKind.RED && op.client() == WorkerLocks.PROXIED_CLIENT;
            case WORKER_PAUSE -> worker == op.worker();
            case KILL_PUBSUB -> false;
        };
    }
}

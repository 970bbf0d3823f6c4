package io.distlock.faults.checker;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * What one operation of a worker did, as one line of its history file. Times are
 * {@link System#nanoTime()} values: CLOCK_MONOTONIC on Linux, one clock for all processes of the
 * machine (checked at the start of each run), so times of different JVMs compare.
 *
 * <p>The critical section is {@code [entry, exit]}: {@code entry} is taken after the acquisition
 * returned {@code true}, {@code exit} before the last release call (inner releases of re-entries
 * come before it); so the section lies inside
 * the time the lock was really held, if the lock works.
 *
 * @param id         {@code w<worker>.t<thread>.<index>}
 * @param worker     worker index
 * @param holder     the oracle's holder identity: the thread ({@code w0.t3}) or the async holder id
 * @param call       how the lock was asked for
 * @param kind       the lock kind
 * @param locks      what the hold covers: {@code X:name} (exclusive) or {@code S:name} (shared)
 * @param waitMs     the wait time asked for; -1 for {@code lock()}
 * @param leaseMs    the lease asked for; -1 for the watchdog
 * @param callStart  when the acquisition was called
 * @param callEnd    when it returned; -1 if it never did
 * @param outcome    how it ended
 * @param depth      how many holds the holder took (re-entries + 1, or the number of successful
 *                   overlapping async calls)
 * @param entry      start of the critical section; -1 if none
 * @param exit       end of the critical section; -1 if none
 * @param token      fencing token of a fenced hold; -1 if none
 * @param lost       whether the library told the holder that the lease was lost (event or
 *                   exception) between the acquisition and the end of the release
 * @param release    how the release ended ({@code OK}, {@code LOST}, or the exception's class)
 * @param detail     the operation as planned, for the history printout
 * @param leaseCalls the acquisition calls that set the hold's lease, in order: the first call and
 *                   each successful re-entry (a re-entry lengthens the lease to a full one), or
 *                   each successful one of two overlapping async calls; the call alone if none
 *                   succeeded. See {@link #leaseFrom(long)}
 * @param client     which of the worker's clients of the Redis under test made the call
 *                   ({@link WorkerLocks#PROXIED_CLIENT} goes through the proxy)
 * @param done       when the operation ended, its releases included
 * @param queued     when the library first said the acquisition was waiting, which for a fair
 *                   lock means its first attempt found it taken and queued it in Redis (an upper
 *                   bound: said after it happened); -1 if it did not say so
 * @param innerRelease when the releases of all holds but the last began, halfway through the
 *                   critical section: until then the holder had all {@code depth} holds; -1 if it
 *                   had one
 */
public record OpRecord(String id, int worker, String holder, Operation.Call call, LockKind kind, List<String> locks,
                       long waitMs, long leaseMs, long callStart, long callEnd, Outcome outcome, int depth,
                       long entry, long exit, long token, boolean lost, String release, String detail,
                       List<LeaseCall> leaseCalls, int client, long done, long queued, long innerRelease) {

    /** How an acquisition ended. */
    public enum Outcome {
        ACQUIRED, NOT_ACQUIRED, INTERRUPTED, CANCELLED, ERROR,
        /** An async call whose future did not complete within its wait time plus the stated bound. */
        NO_ANSWER,
        /** Still running when the worker had to stop. */
        UNFINISHED
    }

    private static final String TAG = "OP";
    private static final int FIELDS = 24;

    /** @return whether this record has a critical section */
    public boolean held() {
        return entry >= 0;
    }

    /**
     * @param until a moment of the hold
     * @return when the last call known to have set the lease by {@code until} began: the first
     *         call, or a later one that returned before {@code until}. The lease in force at
     *         {@code until} cannot run out before this plus the lease; a re-entry still running
     *         then may have run its script after it, and one that came later does not matter
     */
    public long leaseFrom(long until) {
        long from = leaseCalls.get(0).start();
        for (LeaseCall set : leaseCalls) {
            if (set.end() <= until) {
                from = Math.max(from, set.start());
            }
        }
        return from;
    }

    /**
     * @param moment a moment of the hold
     * @return this record with only the lease calls that returned before {@code moment} (this
     *         record itself if none did): the hold as it stood then, to judge whether its lease
     *         could have run out before
     */
    public OpRecord leaseSetBefore(long moment) {
        List<LeaseCall> before = leaseCalls.stream().filter(set -> set.end() < moment).toList();
        return before.isEmpty() ? this : new OpRecord(id, worker, holder, call, kind, locks, waitMs, leaseMs, callStart,
                callEnd, outcome, depth, entry, exit, token, lost, release, detail, before, client, done, queued,
                innerRelease);
    }

    /** @return the lease that ends the hold if nobody renews or releases it: the explicit one, or the watchdog's */
    public long effectiveLeaseMs() {
        return leaseMs > 0 ? leaseMs : CheckerSettings.WATCHDOG.toMillis();
    }

    /** @return this record as one line: tab-separated fields */
    public String toLine() {
        return String.join("\t", TAG, id, Integer.toString(worker), holder, call.name(), kind.name(),
                String.join(",", locks), Long.toString(waitMs), Long.toString(leaseMs), Long.toString(callStart),
                Long.toString(callEnd), outcome.name(), Integer.toString(depth), Long.toString(entry),
                Long.toString(exit), Long.toString(token), Boolean.toString(lost), release, detail,
                String.join(",", leaseCalls.stream().map(LeaseCall::toText).toList()), Integer.toString(client),
                Long.toString(done), Long.toString(queued), Long.toString(innerRelease));
    }

    /**
     * @param line a line written by {@link #toLine()}
     * @return the record, or {@code null} if the line is not an operation record
     */
    public static OpRecord parse(String line) {
        String[] f = line.split("\t", -1);
        if (!TAG.equals(f[0]) || f.length != FIELDS) {
            return null;
        }
        return new OpRecord(f[1], Integer.parseInt(f[2]), f[3], Operation.Call.valueOf(f[4]), LockKind.valueOf(f[5]),
                Arrays.asList(f[6].split(",")), Long.parseLong(f[7]), Long.parseLong(f[8]), Long.parseLong(f[9]),
                Long.parseLong(f[10]), Outcome.valueOf(f[11]), Integer.parseInt(f[12]), Long.parseLong(f[13]),
                Long.parseLong(f[14]), Long.parseLong(f[15]), Boolean.parseBoolean(f[16]), f[17], f[18],
                Stream.of(f[19].split(",")).map(LeaseCall::parse).toList(), Integer.parseInt(f[20]),
                Long.parseLong(f[21]), Long.parseLong(f[22]), Long.parseLong(f[23]));
    }
}

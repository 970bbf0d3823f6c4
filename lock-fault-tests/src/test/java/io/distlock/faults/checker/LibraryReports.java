package io.distlock.faults.checker;

import io.distlock.core.LockEvent;
import io.distlock.core.LockListener;

import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Predicate;

/**
 * What the library told a worker, with the time it said so: every lease it said was lost
 * ({@code onLost}, {@code onRenewalLost}), since an overlap is excused only where the earlier
 * holder was told; and every acquisition it said was waiting ({@code onWaiting}), which for a fair
 * lock means its first attempt found the lock taken and queued it in Redis.
 */
final class LibraryReports implements LockListener {

    private record Report(String lockName, String holderId, long nanos) {
    }

    private final Queue<Report> lost = new ConcurrentLinkedQueue<>();
    private final Queue<Report> waiting = new ConcurrentLinkedQueue<>();

    @Override
    public void onRenewalLost(LockEvent event) {
        record(lost, event);
    }

    @Override
    public void onLost(LockEvent event) {
        record(lost, event);
    }

    @Override
    public void onWaiting(LockEvent event) {
        record(waiting, event);
    }

    /**
     * @param names  lock names
     * @param holder which holder ids count
     * @param from   start of the period ({@link System#nanoTime()})
     * @param to     end of the period
     * @return whether a loss of one of the names was reported for such a holder within the period
     */
    boolean lostReported(List<String> names, Predicate<String> holder, long from, long to) {
        return lost.stream().anyMatch(report -> matches(report, names, holder, from, to));
    }

    /**
     * @param names  lock names
     * @param holder which holder ids count
     * @param from   start of the period ({@link System#nanoTime()})
     * @param to     end of the period
     * @return when the library first said, within the period, that such a holder waited for one of
     *         the names; -1 if it did not
     */
    long firstWaiting(List<String> names, Predicate<String> holder, long from, long to) {
        return waiting.stream().filter(report -> matches(report, names, holder, from, to))
                .mapToLong(Report::nanos).min().orElse(-1);
    }

    private static boolean matches(Report report, List<String> names, Predicate<String> holder, long from, long to) {
        return names.contains(report.lockName()) && holder.test(report.holderId()) && report.nanos() >= from
                && report.nanos() <= to;
    }

    private static void record(Queue<Report> reports, LockEvent event) {
        reports.add(new Report(event.lockName(), event.holderId(), System.nanoTime()));
    }
}

package io.distlock.faults.checker;

import io.distlock.core.LockEvent;
import io.distlock.core.LockListener;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/**
 * A worker's record of every lease the library said was lost ({@code onLost}, {@code onRenewalLost}),
 * with the time it said so: an overlap is excused only where the earlier holder was told.
 */
final class LostReports implements LockListener {

    private record Report(String lockName, String holderId, long nanos) {
    }

    private final List<Report> reports = new CopyOnWriteArrayList<>();

    @Override
    public void onRenewalLost(LockEvent event) {
        record(event);
    }

    @Override
    public void onLost(LockEvent event) {
        record(event);
    }

    /**
     * @param names  lock names
     * @param holder which holder ids count
     * @param from   start of the period ({@link System#nanoTime()})
     * @param to     end of the period
     * @return whether a loss of one of the names was reported for such a holder within the period
     */
    boolean reported(List<String> names, Predicate<String> holder, long from, long to) {
        return reports.stream().anyMatch(report -> names.contains(report.lockName())
                && holder.test(report.holderId()) && report.nanos() >= from && report.nanos() <= to);
    }

    private void record(LockEvent event) {
        reports.add(new Report(event.lockName(), event.holderId(), System.nanoTime()));
    }
}

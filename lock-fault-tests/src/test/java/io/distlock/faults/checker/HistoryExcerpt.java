package io.distlock.faults.checker;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Prints the part of a run's history around a finding: the operations involved, and the operations
 * on the same lock names and the faults within a second of them (the nearest first, if there are
 * too many), in time order, times in ms since the run started.
 */
final class HistoryExcerpt {

    private static final long MARGIN_NANOS = 1_000_000_000L;
    private static final int MAX_LINES = 40;

    private final List<OpRecord> ops;
    private final List<FaultRecord> faults;
    private final long runStart;

    /**
     * @param ops      every operation of the run
     * @param faults   every fault of the run
     * @param runStart {@link System#nanoTime()} at the start of the load
     */
    HistoryExcerpt(List<OpRecord> ops, List<FaultRecord> faults, long runStart) {
        this.ops = ops;
        this.faults = faults;
        this.runStart = runStart;
    }

    /**
     * @param finding a finding with involved operations
     * @return the excerpt, one line per operation or fault; involved operations marked {@code >>}
     */
    String around(Finding finding) {
        if (finding.involved().isEmpty()) {
            return "";
        }
        Set<String> names = new HashSet<>();
        finding.involved().forEach(op -> op.locks().forEach(lock -> names.add(lock.substring(2))));
        List<Line> lines = new ArrayList<>();
        for (FaultRecord fault : faults) {
            long distance = distance(fault.start(), fault.end(), finding);
            if (distance <= MARGIN_NANOS) {
                lines.add(new Line(fault.start(), distance, String.format(Locale.ROOT,
                        "%10.1f      FAULT %s %s (until %.1f)", ms(fault.start()), fault.kind(), fault.detail(),
                        ms(fault.end()))));
            }
        }
        for (OpRecord op : ops) {
            boolean involved = finding.involved().contains(op);
            long distance = involved ? -1 : distance(op.callStart(), end(op), finding);
            if (distance <= MARGIN_NANOS && op.locks().stream().anyMatch(lock -> names.contains(lock.substring(2)))) {
                lines.add(new Line(op.callStart(), distance, describe(op, involved)));
            }
        }
        lines.sort(Comparator.comparingLong(Line::distance));  // the involved ones and their nearest neighbours
        int dropped = Math.max(0, lines.size() - MAX_LINES);
        List<Line> shown = new ArrayList<>(lines.subList(0, lines.size() - dropped));
        shown.sort(Comparator.comparingLong(Line::time));
        return "    history around it (ms since start; call .. return, [entry .. exit]):\n"
                + String.join("\n", shown.stream().map(Line::text).toList())
                + (dropped > 0 ? "\n    ... and " + dropped + " more operations further away" : "");
    }

    /** One printed line, with its time and its distance from the finding's operations (-1: one of them). */
    private record Line(long time, long distance, String text) {
    }

    /** @return how far {@code [from, to]} lies from the nearest involved operation; 0 if they overlap */
    private static long distance(long from, long to, Finding finding) {
        long nearest = Long.MAX_VALUE;
        for (OpRecord op : finding.involved()) {
            long gap = Math.max(0, Math.max(op.callStart() - to, from - end(op)));
            nearest = Math.min(nearest, gap);
        }
        return nearest;
    }

    private String describe(OpRecord op, boolean involved) {
        String section = op.held() ? String.format(Locale.ROOT, " [%.1f .. %s]", ms(op.entry()),
                op.exit() < 0 ? "never" : String.format(Locale.ROOT, "%.1f", ms(op.exit()))) : "";
        return String.format(Locale.ROOT, "%10.1f %s %s %s %s %s .. %s %s%s token=%d lost=%s release=%s | %s",
                ms(op.callStart()), involved ? ">>" : "  ", op.id(), op.holder(), op.kind(), op.locks(),
                op.callEnd() < 0 ? "never" : String.format(Locale.ROOT, "%.1f", ms(op.callEnd())), op.outcome(),
                section, op.token(), op.lost(), op.release(), op.detail());
    }

    private double ms(long nanos) {
        return (nanos - runStart) / 1_000_000.0;
    }

    /**
     * @param nanos a {@link System#nanoTime()} of the run
     * @return that moment in whole ms since the load began
     */
    long millisSinceStart(long nanos) {
        return (nanos - runStart) / 1_000_000;
    }

    private static long end(OpRecord op) {
        if (op.exit() >= 0) {
            return op.exit();
        }
        return op.callEnd() >= 0 ? op.callEnd() : Long.MAX_VALUE - MARGIN_NANOS;
    }
}

package io.distlock.benchmarks;

import java.io.PrintStream;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/** Prints the {@link Scenario#PROCESSES} section of the report as markdown: a table per case, rounds, checks. */
final class ProcessPrinter {

    private final PrintStream out;

    /** @param out where the report goes */
    ProcessPrinter(PrintStream out) {
        this.out = out;
    }

    /** @param result the scenario's measurements */
    void print(ProcessResult result) {
        ProcessOptions options = result.options();
        line("## processes: %d JVMs x %d threads each, every thread looping lock(); unlock() on the same lock names",
                options.processes(), options.threads());
        out.println();
        line("Each load starts fresh child JVMs: warm-up %s s, then a measurement window of %s s.",
                ReportPrinter.seconds(options.warmup()), ReportPrinter.seconds(result.window()));
        out.println();
        for (ProcessCase measured : result.cases()) {
            printCase(measured);
        }
        out.println("- Each child JVM runs one backend and records, per acquisition, when lock() returned "
                + "(System.nanoTime(), CLOCK_MONOTONIC: one clock for all processes of the machine) and how long it "
                + "waited; the records of all children are merged by time. A hand-off to another JVM is an "
                + "acquisition whose previous acquisition of the same name was made by another process; a streak "
                + "is a run of acquisitions of one name by one process. Median over rounds; ratio = median of the "
                + "per-round ratios; streak = longest of any round.");
        out.println();
        out.println("Processes checks:");
        for (TargetCheck check : result.checks()) {
            line("- %s: %s (measured %s)", check.verdict(), check.target(), check.actual());
        }
        out.println();
    }

    private void printCase(ProcessCase measured) {
        line("### %s", measured.label());
        out.println();
        out.println("| | distlock | redisson | distlock/redisson |");
        out.println("|---|--:|--:|--:|");
        row(measured, "acquisitions/s", "%,.0f", ProcessMeasurement::acquisitionsPerSecond);
        row(measured, "hand-offs to another JVM/s", "%,.0f", ProcessMeasurement::crossHandOffsPerSecond);
        row(measured, "acquisitions that moved to another JVM", "%.1f%%", ProcessMeasurement::crossHandOffPercent);
        line("| longest same-JVM streak (acquisitions) | %,.0f | %,.0f | |",
                measured.spread(ProcessRound::distlock, ProcessMeasurement::longestStreak).max(),
                measured.spread(ProcessRound::redisson, ProcessMeasurement::longestStreak).max());
        row(measured, "lock() wait p50 (ms)", "%.2f", ProcessMeasurement::p50WaitMillis);
        row(measured, "lock() wait p99 (ms)", "%.2f", ProcessMeasurement::p99WaitMillis);
        row(measured, "longest lock() wait (ms)", "%.1f", ProcessMeasurement::maxWaitMillis);
        out.println();
        for (int i = 0; i < measured.rounds().size(); i++) {
            ProcessRound round = measured.rounds().get(i);
            line("- r%d: distlock %s; redisson %s", i + 1, summary(round.distlock()), summary(round.redisson()));
        }
        out.println();
    }

    private void row(ProcessCase measured, String label, String format, ToDoubleFunction<ProcessMeasurement> metric) {
        double ours = measured.spread(ProcessRound::distlock, metric).median();
        double theirs = measured.spread(ProcessRound::redisson, metric).median();
        double ratio = measured.spread(round -> metric.applyAsDouble(round.distlock())
                / metric.applyAsDouble(round.redisson())).median();
        line("| %s | " + format + " | " + format + " | %.2fx |", label, ours, theirs, ratio);
    }

    private static String summary(ProcessMeasurement measured) {
        String shares = IntStream.range(0, measured.perProcess().length)
                .mapToObj(process -> String.format(Locale.ROOT, "%.0f", measured.sharePercent(process)))
                .collect(Collectors.joining("/"));
        return String.format(Locale.ROOT, "%,.0f acq/s, %,.0f to another JVM/s (%.1f%%), longest streak %,d, "
                        + "p99 %.2f ms, max %.1f ms, shares %s%%", measured.acquisitionsPerSecond(),
                measured.crossHandOffsPerSecond(), measured.crossHandOffPercent(), measured.longestStreak(),
                measured.p99WaitMillis(), measured.maxWaitMillis(), shares);
    }

    private void line(String format, Object... args) {
        out.println(String.format(Locale.ROOT, format, args));
    }
}

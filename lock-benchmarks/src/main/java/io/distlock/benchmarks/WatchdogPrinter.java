package io.distlock.benchmarks;

import java.io.PrintStream;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.function.ToDoubleFunction;

/** Prints the {@link Scenario#WATCHDOG} section of the report as markdown: one table and the checks. */
final class WatchdogPrinter {

    private final PrintStream out;

    /** @param out where the report goes */
    WatchdogPrinter(PrintStream out) {
        this.out = out;
    }

    /** @param result the scenario's measurements */
    void print(WatchdogResult result) {
        WatchdogOptions options = result.options();
        WatchdogRound median = result.medianRound();
        WatchdogMeasurement ours = median.distlock();
        WatchdogMeasurement theirs = median.redisson();
        line("## watchdog: %,d locks held by one client for %s s, watchdog timeout %s s (renewal every %,d ms)",
                options.locks(), ReportPrinter.seconds(options.hold()), ReportPrinter.seconds(options.timeout()),
                options.renewalInterval().toMillis());
        out.println();
        for (WatchdogRound round : result.rounds()) {
            line("watchdog-r%d (%s first): JVM CPU in the hold %.2f s vs %.2f s = %.2fx, renewal calls per round "
                    + "%.1f vs %.1f, locks lost %,d vs %,d", round.number(), round.distlockFirst() ? "distlock"
                    : "redisson", round.distlock().cpuNanos() / 1e9, round.redisson().cpuNanos() / 1e9,
                    round.cpuRatio(), round.distlock().callsPerRound(), round.redisson().callsPerRound(),
                    round.distlock().locksLost(), round.redisson().locksLost());
        }
        out.println();
        line("Round %d of %d, %s:", median.number(), result.rounds().size(), WatchdogResult.MEDIAN_ROUND);
        out.println();
        out.println("| | distlock | redisson | distlock/redisson |");
        out.println("|---|--:|--:|--:|");
        row("acquire all: lock() one after the other, one thread", "%.2f s", m -> m.acquireNanos() / 1e9, ours,
                theirs);
        line("| renewal batch size (most locks per script call) | %d | %d | |", ours.batchSize(), theirs.batchSize());
        row("renewal script calls in the hold (EVAL + EVALSHA)", "%,.0f", m -> m.renewalCalls(), ours, theirs);
        line("| renewal rounds (hold / (timeout / 3)) | %.1f | %.1f | |", ours.rounds(), theirs.rounds());
        row("renewal calls per round", "%.1f", WatchdogMeasurement::callsPerRound, ours, theirs);
        row("JVM CPU time in the hold", "%.2f s", m -> m.cpuNanos() / 1e9, ours, theirs);
        line("| JVM CPU in the hold, share of one core | %.1f%% | %.1f%% | |", ours.cpuPercentOfCore(),
                theirs.cpuPercentOfCore());
        line("| of which JIT compilation | %s | %s | |", millis(ours.jitMillis()), millis(theirs.jitMillis()));
        row("heap per held lock (approximate)", "%,.0f B", WatchdogMeasurement::heapBytesPerLock, ours, theirs);
        row("Redis used_memory per held lock", "%,.0f B", WatchdogMeasurement::redisBytesPerLock, ours, theirs);
        line("| lock keys in Redis at the end of the hold | %,d | %,d | |", ours.keysAtEnd(), theirs.keysAtEnd());
        line("| shortest lease left over %d censuses | %,d ms | %,d ms | |", WatchdogRun.CENSUSES, ours.minPttl(),
                theirs.minPttl());
        line("| locks the client reported lost | %s | %s | |", reported(ours.lostReported()),
                reported(theirs.lostReported()));
        line("| renewals the client reported failed (Redis errors) | %s | %s | |", reported(ours.renewalFailures()),
                reported(theirs.renewalFailures()));
        line("| unlock() failures after the hold | %,d | %,d | |", ours.unlockFailures(), theirs.unlockFailures());
        line("| locks lost | %,d | %,d | |", ours.locksLost(), theirs.locksLost());
        line("| longest JVM stall in the hold (10 ms sleeper woke late by) | %,d ms | %,d ms | |", ours.longestStall(),
                theirs.longestStall());
        out.println();
        out.println("- Each client has its own connection and runs alone, distlock first in odd rounds and Redisson first "
                + "in even ones (lockWatchdogTimeout set to the timeout, lockWatchdogBatchSize at its default)"
                + (result.flushed() ? ", each on a freshly flushed Redis." : "; the given Redis was not flushed, "
                + "so scripts of other clients of that Redis count as renewals."));
        out.println("- Renewal calls = EVAL + EVALSHA calls in INFO commandstats over the hold window, less the "
                + "benchmark's own censuses (a SCAN-and-PTTL script, one call per 1,000 keys).");
        out.println("- Before either client is measured, each runs the scenario once unmeasured (all locks held "
                + WatchdogRun.WARM_UP_PASS_ROUNDS + " renewal rounds), and the hold window opens after "
                + WatchdogRun.WARM_UP_ROUNDS + " more rounds, so it measures the steady cost of the leases, not the "
                + "first compilation of a renewal path or of the Netty code both clients share.");
        out.println("- CPU = CPU time of the whole JVM, in which only the measured client is connected (also GC and "
                + "JIT). Heap = used heap after System.gc() with the locks and their Lock objects held, "
                + "minus before acquiring, per lock. Redis memory likewise from INFO memory.");
        out.println("- A lease is lost when its renewal stalls longer than the timeout minus the renewal interval, "
                + "whichever client renews it: a loss next to a JVM stall that long points at the machine.");
        out.println(options.renewalListener()
                ? "- distlock's client counts renewals, lost locks and failed renewals with a listener, as an application "
                + "with the starter's meters does: it builds an event per renewal."
                : "- distlock's client counts lost locks and failed renewals with a listener; it builds no event per "
                + "renewal, as nobody listens for renewals (an application with the starter's meters does: "
                + "--watchdog-renewal-listener=true measures that).");
        out.println();
        out.println("Watchdog checks:");
        for (TargetCheck check : result.checks()) {
            line("- %s: %s (measured %s)", check.passOrFail(), check.target(), check.actual());
        }
        TargetCheck cpu = result.cpuTarget();
        line("- %s: %s (measured %s)", cpu.verdict(), cpu.target(), cpu.actual());
        out.println();
    }

    private void row(String label, String format, ToDoubleFunction<WatchdogMeasurement> value,
                     WatchdogMeasurement ours, WatchdogMeasurement theirs) {
        double a = value.applyAsDouble(ours);
        double b = value.applyAsDouble(theirs);
        String ratio = b == 0 ? "n/a" : String.format(Locale.ROOT, "%.2fx", a / b);
        line("| %s | " + format + " | " + format + " | %s |", label, a, b, ratio);
    }

    private static String millis(OptionalLong value) {
        return value.isPresent() ? String.format(Locale.ROOT, "%,d ms", value.getAsLong()) : "n/a";
    }

    private static String reported(OptionalLong count) {
        return count.isPresent() ? String.format(Locale.ROOT, "%,d", count.getAsLong()) : "n/a (no such signal)";
    }

    private void line(String format, Object... args) {
        out.println(String.format(Locale.ROOT, format, args));
    }
}

package io.distlock.faults.checker;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The outcome of one checker run: what it covered (operations, holds, faults) and what the oracle
 * found, with the history around each violation.
 *
 * @param settings   the run's settings
 * @param ops        every operation record
 * @param faults     every fault applied
 * @param violations what must not happen
 * @param excused    overlaps an honest lease expiry explains, each with its excuse
 * @param fairPairs  how many pairs of fair-lock waiters the FIFO property judged
 * @param leftovers  what was left in Redis at the end
 * @param excerpt    prints the history around a finding
 */
record CheckReport(CheckerSettings settings, List<OpRecord> ops, List<FaultRecord> faults, List<Finding> violations,
                   List<Excused> excused, long fairPairs, LeftoverHolds leftovers, HistoryExcerpt excerpt) {

    private static final int DETAILED = 10;

    /** @return the summary: seed, coverage, counts of findings */
    String summary() {
        long holds = ops.stream().filter(OpRecord::held).count();
        long lost = ops.stream().filter(OpRecord::lost).count();
        return String.join("\n",
                "randomized lock checker: seed=" + settings.seed() + ", " + settings.seconds() + " s of load, "
                        + settings.workers() + " worker JVMs x " + settings.threads() + " threads, load "
                        + settings.profile() + ", faults " + (settings.faults() ? "on" : "off")
                        + (settings.unlockedName().isEmpty() ? "" : ", NOT LOCKING " + settings.unlockedName()),
                "  operations: " + ops.size() + " by call " + count(ops, OpRecord::call),
                "              by kind " + count(ops, OpRecord::kind),
                "              by outcome " + count(ops, OpRecord::outcome),
                "  critical sections: " + holds + ", of which the library reported " + lost + " as lost",
                "  faults: " + faults.size() + " " + count(faults, FaultRecord::kind),
                "  excused overlaps (an honest lease expiry explains them): " + excused.size(),
                "  pairs of fair-lock waiters judged for FIFO order: " + fairPairs,
                "  fair-lock waiting-room keys left: " + leftovers.waitingRoom().size(),
                "  violations: " + violations.size() + " " + count(violations, Finding::kind),
                "  replay: -D" + CheckerSettings.SEED + "=" + settings.seed() + " -D" + CheckerSettings.SECONDS + "="
                        + settings.seconds() + " -D" + CheckerSettings.PROFILE + "=" + settings.profile());
    }

    /**
     * @return every excused overlap with the numbers that justify it, for a reader to audit; times
     *         in ms since the load began
     */
    String excusedDetails() {
        StringBuilder text = new StringBuilder();
        for (Excused excused : excused) {
            text.append("EXCUSED ").append(excused.finding().kind()).append(": ").append(excused.finding().message())
                    .append(" at ").append(excerpt.millisSinceStart(excused.finding().seenAt())).append(" ms: ")
                    .append(excused.excuse().text()).append('\n');
        }
        return text.toString();
    }

    /**
     * @return seconds of load until the first violation of {@code kind} could be seen in the
     *         history, or -1 if there is none
     */
    double secondsUntilFirst(String kind) {
        return violations.stream().filter(finding -> finding.kind().equals(kind) && finding.seenAt() >= 0)
                .mapToLong(Finding::seenAt).min().stream()
                .mapToDouble(seen -> excerpt.millisSinceStart(seen) / 1000.0).findFirst().orElse(-1);
    }

    /** @return the first violations in full, each with the history around it */
    String violationDetails() {
        StringBuilder text = new StringBuilder();
        for (Finding finding : violations.subList(0, Math.min(DETAILED, violations.size()))) {
            text.append("VIOLATION ").append(finding.kind()).append(": ").append(finding.message()).append('\n')
                    .append(excerpt.around(finding)).append('\n');
        }
        if (violations.size() > DETAILED) {
            text.append("... and ").append(violations.size() - DETAILED).append(" more violations\n");
        }
        return text.toString();
    }

    private static <T, K> Map<K, Long> count(List<T> items, Function<T, K> key) {
        return items.stream().collect(Collectors.groupingBy(key, TreeMap::new, Collectors.counting()));
    }
}

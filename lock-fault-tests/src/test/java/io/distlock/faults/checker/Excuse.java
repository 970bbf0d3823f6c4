package io.distlock.faults.checker;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Why an overlap of two holders is no defect: the hold that lapsed could really have lost its
 * lease before the other holder entered. This record is the rule itself ({@link #allowed()}), so
 * that every excused finding carries the numbers a reader needs to check it:
 * <ul>
 *   <li>The lease in force when the other holder entered cannot end before
 *       {@code leaseFrom + leaseMs}: it was set (or, by a re-entry, set again to a full lease) by a
 *       script that ran after its call began ({@link OpRecord#leaseFrom(long)}: the last such call
 *       before the other's entry). So the other holder must have entered at least the lease, less
 *       {@link #MARGIN_MS}, after that.</li>
 *   <li>An explicit lease ends by itself; nothing more is needed.</li>
 *   <li>A watchdog lease ({@link CheckerSettings#WATCHDOG}) is renewed every third of it. It can
 *       only end if no renewal took effect for a whole lease, which needs faults that could block
 *       the renewals of this holder ({@link FaultRecord#hinders}). A fault blocks from one
 *       renewal interval before it began (the last renewal may have come then) to one renewal
 *       interval after it ended (the next renewal may come that late), each widened by the margin;
 *       faults whose such windows touch form one chain. The part of the chain's window between
 *       {@code leaseFrom} and the other's entry must be at least the lease less the margin.</li>
 * </ul>
 * Nothing else excuses an overlap: in particular not the library's having told the holder its
 * lease was lost, which is just what the victim of a double grant hears.
 *
 * @param lapsed    the hold whose lease may have ended
 * @param leaseMs   its lease: explicit, or the watchdog's
 * @param leaseFrom {@link OpRecord#leaseFrom(long)} of that hold at {@code until}
 * @param until     when the other holder entered
 * @param faults    for a watchdog hold, the chain of faults that could have blocked its renewals
 *                  (in time order); empty for an explicit lease
 */
public record Excuse(OpRecord lapsed, long leaseMs, long leaseFrom, long until, List<FaultRecord> faults) {

    /** Allowance for Redis's expiry and the stamps around a call being a little apart, in ms. */
    public static final long MARGIN_MS = 100;
    /** How often the watchdog renews: a third of its lease. */
    public static final long RENEWAL_INTERVAL_MS = CheckerSettings.WATCHDOG.toMillis() / 3;

    private static final long MS = 1_000_000;

    /** @return whether the rule above allows this excuse */
    public boolean allowed() {
        long needed = (leaseMs - MARGIN_MS) * MS;
        if (leaseFrom != lapsed.leaseFrom(until)) {
            return false;
        }
        if (lapsed.leaseMs() > 0) {
            return faults.isEmpty() && leaseMs == lapsed.leaseMs() && until - leaseFrom >= needed;
        }
        return leaseMs == CheckerSettings.WATCHDOG.toMillis() && !faults.isEmpty() && chained()
                && faults.stream().allMatch(fault -> fault.hinders(lapsed))
                && renewalFreeNanos() >= needed;
    }

    /** @return the length of the stretch in which no renewal need have taken effect, in ns (0 for an explicit lease) */
    long renewalFreeNanos() {
        if (faults.isEmpty()) {
            return 0;
        }
        long from = Math.max(leaseFrom, windowStart(faults.get(0)));
        long to = Math.min(until, faults.stream().mapToLong(Excuse::windowEnd).max().orElseThrow());
        return Math.max(0, to - from);
    }

    /** @return the justification in words and numbers */
    public String text() {
        String lease = String.format(Locale.ROOT, "%s's %s lease of %d ms from its last acquisition call; the other "
                        + "entered %d ms after that call began (at least %d ms needed)", lapsed.holder(),
                lapsed.leaseMs() > 0 ? "explicit" : "watchdog", leaseMs, TimeUnit.NANOSECONDS.toMillis(until - leaseFrom),
                leaseMs - MARGIN_MS);
        if (faults.isEmpty()) {
            return lease;
        }
        return lease + String.format(Locale.ROOT, "; renewals could be blocked for %d ms by ",
                TimeUnit.NANOSECONDS.toMillis(renewalFreeNanos()))
                + String.join(", ", faults.stream().map(fault -> fault.kind() + " " + fault.detail()
                + " (" + fault.millis() + " ms)").toList());
    }

    /** @return whether each fault's window touches the next one's */
    private boolean chained() {
        for (int i = 1; i < faults.size(); i++) {
            if (windowStart(faults.get(i)) > windowEnd(faults.get(i - 1))) {
                return false;
            }
        }
        return true;
    }

    /** @return from when a fault may have kept renewals from taking effect */
    static long windowStart(FaultRecord fault) {
        return fault.start() - (RENEWAL_INTERVAL_MS + MARGIN_MS) * MS;
    }

    /** @return until when a fault may have kept renewals from taking effect */
    static long windowEnd(FaultRecord fault) {
        return fault.end() + (RENEWAL_INTERVAL_MS + MARGIN_MS) * MS;
    }
}

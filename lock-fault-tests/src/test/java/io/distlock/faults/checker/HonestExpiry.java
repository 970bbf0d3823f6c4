package io.distlock.faults.checker;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Looks for an {@link Excuse}: whether a hold could honestly have lost its lease before a given
 * moment, by its explicit lease or by faults that could block its watchdog's renewals.
 */
final class HonestExpiry {

    private final List<FaultRecord> faults;

    /** @param faults every fault of the run, in time order */
    HonestExpiry(List<FaultRecord> faults) {
        this.faults = faults;
    }

    /**
     * @param lapsed a hold
     * @param until  when another holder entered
     * @return the excuse, if the rule of {@link Excuse} allows one; for a watchdog hold, the chain
     *         of faults that left the longest stretch without renewals, the most telling one
     */
    Optional<Excuse> before(OpRecord lapsed, long until) {
        if (lapsed.leaseMs() > 0) {
            return allowed(new Excuse(lapsed, lapsed.leaseMs(), lapsed.leaseFrom(until), until, List.of()));
        }
        List<List<FaultRecord>> chains = new ArrayList<>();
        List<FaultRecord> chain = new ArrayList<>();
        for (FaultRecord fault : faults) {
            if (!fault.hinders(lapsed) || Excuse.windowEnd(fault) < lapsed.leaseFrom(until)) {
                continue;
            }
            if (Excuse.windowStart(fault) > until) {
                break;
            }
            if (!chain.isEmpty() && Excuse.windowStart(fault) > Excuse.windowEnd(chain.get(chain.size() - 1))) {
                chains.add(chain);
                chain = new ArrayList<>();
            }
            chain.add(fault);
        }
        if (!chain.isEmpty()) {
            chains.add(chain);
        }
        return chains.stream()
                .map(faults -> new Excuse(lapsed, CheckerSettings.WATCHDOG.toMillis(), lapsed.leaseFrom(until), until,
                        List.copyOf(faults)))
                .filter(Excuse::allowed)
                .max(Comparator.comparingLong(Excuse::renewalFreeNanos));
    }

    private static Optional<Excuse> allowed(Excuse excuse) {
        return excuse.allowed() ? Optional.of(excuse) : Optional.empty();
    }
}

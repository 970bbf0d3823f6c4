package io.distlock.sample.race;

import java.util.List;

/**
 * What one round of the race produced, as the HTTP answers and the payment provider tell it.
 *
 * @param requests                       requests sent
 * @param processedNow                   answers "processed by this call"
 * @param alreadyProcessed               answers "was processed before"
 * @param failed                         requests without a 200 answer (errors, timeouts): failures
 * @param charges                        charges the payment provider counted, all orders
 * @param doubleCharges                  charges beyond the first of each order
 * @param chargesPerOrder                the provider's count per order, in order
 * @param everyOrderProcessedExactlyOnce no failed request, and every order processed once and charged once
 * @param elapsedMillis                  from the first request sent to the last answer
 * @param mostConcurrentCharges          the most charges the payment provider served at once
 */
public record RaceRound(int requests, int processedNow, int alreadyProcessed, int failed, int charges,
                        int doubleCharges, List<Integer> chargesPerOrder, boolean everyOrderProcessedExactlyOnce,
                        long elapsedMillis, int mostConcurrentCharges) {

    /**
     * @param processedNow     answers "processed by this call"
     * @param alreadyProcessed answers "was processed before"
     * @param failed           requests without a 200 answer
     * @param timesProcessed   the order service's count per order
     * @param chargesPerOrder  the payment provider's count per order
     * @param elapsedMillis    how long the requests took
     * @param mostAtOnce       the most charges the payment provider served at once
     * @return the round, with the derived counts
     */
    static RaceRound of(int processedNow, int alreadyProcessed, int failed, List<Integer> timesProcessed,
                        List<Integer> chargesPerOrder, long elapsedMillis, int mostAtOnce) {
        int charges = chargesPerOrder.stream().mapToInt(Integer::intValue).sum();
        int doubleCharges = chargesPerOrder.stream().mapToInt(count -> Math.max(0, count - 1)).sum();
        boolean exactlyOnce = failed == 0 && processedNow == chargesPerOrder.size()
                && chargesPerOrder.stream().allMatch(count -> count == 1)
                && timesProcessed.stream().allMatch(count -> count == 1);
        return new RaceRound(processedNow + alreadyProcessed + failed, processedNow, alreadyProcessed, failed, charges,
                doubleCharges, List.copyOf(chargesPerOrder), exactlyOnce, elapsedMillis, mostAtOnce);
    }
}

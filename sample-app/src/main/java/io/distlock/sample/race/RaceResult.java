package io.distlock.sample.race;

import java.util.List;

/**
 * The race run twice on fresh orders: through the locked method and through its unlocked twin.
 *
 * @param instances          the sample instances the requests went to, in turn
 * @param orders             orders per round
 * @param requestsPerOrder   concurrent requests per order
 * @param withLock           the round through {@code OrderService.process}
 * @param withoutLock        the round through {@code OrderService.processWithoutLock}
 */
public record RaceResult(List<String> instances, int orders, int requestsPerOrder, RaceRound withLock,
                         RaceRound withoutLock) {

    /**
     * @return a table of both rounds side by side, for a terminal
     */
    public String table() {
        String row = "%-34s %18s %18s%n";
        StringBuilder table = new StringBuilder()
                .append(String.format("%d orders x %d concurrent requests each, sent in turn to %s%n%n", orders,
                        requestsPerOrder, String.join(" and ", instances)))
                .append(String.format(row, "", "with the lock", "without the lock"));
        table.append(String.format(row, "requests", withLock.requests(), withoutLock.requests()));
        table.append(String.format(row, "failed requests", withLock.failed(), withoutLock.failed()));
        table.append(String.format(row, "answers \"processed now\"", withLock.processedNow(), withoutLock.processedNow()));
        table.append(String.format(row, "charges at the payment provider", withLock.charges(), withoutLock.charges()));
        table.append(String.format(row, "double charges", withLock.doubleCharges(), withoutLock.doubleCharges()));
        table.append(String.format(row, "most provider calls at once", withLock.mostConcurrentCharges(),
                withoutLock.mostConcurrentCharges()));
        table.append(String.format(row, "every order processed exactly once", withLock.everyOrderProcessedExactlyOnce(),
                withoutLock.everyOrderProcessedExactlyOnce()));
        return table.toString();
    }
}

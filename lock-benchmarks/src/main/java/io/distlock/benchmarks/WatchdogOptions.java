package io.distlock.benchmarks;

import java.time.Duration;

/**
 * Size of the {@link Scenario#WATCHDOG} scenario: how many locks one client holds, for how long,
 * under which watchdog timeout, and whether distlock's client has a listener of renewals.
 *
 * @param locks            locks held at once by one client, at least 1 (checked by the parser)
 * @param hold             how long they are held once all are acquired; at least one timeout, so
 *                         that only renewal can keep them
 * @param timeout          the watchdog timeout (lease) of both clients; renewed every third of it,
 *                         at least 100 ms (distlock's minimum)
 * @param renewalListener  whether distlock's client also counts renewals with a listener, as an
 *                         application with the starter's meters does (one event per renewal);
 *                         without it, it counts lost locks and failed renewals only
 */
public record WatchdogOptions(int locks, Duration hold, Duration timeout, boolean renewalListener) {

    /** Shortest accepted timeout: the smallest watchdog timeout distlock accepts. */
    static final Duration MIN_TIMEOUT = Duration.ofMillis(100);

    /**
     * Checks the values together, once all options are parsed (so that their order does not matter).
     *
     * @return these options
     * @throws IllegalArgumentException naming the option that is wrong and what it must be
     */
    WatchdogOptions checked() {
        if (timeout.compareTo(MIN_TIMEOUT) < 0) {
            throw new IllegalArgumentException("--watchdog-timeout-seconds must be at least "
                    + seconds(MIN_TIMEOUT) + " (distlock's shortest watchdog timeout), got " + seconds(timeout));
        }
        if (hold.compareTo(timeout) < 0) {
            throw new IllegalArgumentException("--watchdog-seconds (" + seconds(hold) + ") must be at least "
                    + "--watchdog-timeout-seconds (" + seconds(timeout) + "): a shorter hold would not outlive one "
                    + "lease, so it would not show that renewal keeps the locks");
        }
        return this;
    }

    /** @return 20,000 locks held for 60 s with a 3 s timeout, no listener of renewals */
    public static WatchdogOptions defaults() {
        return new WatchdogOptions(20_000, Duration.ofSeconds(60), Duration.ofSeconds(3), false);
    }

    /** @return the time between two renewal rounds: a third of the timeout */
    public Duration renewalInterval() {
        return timeout.dividedBy(3);
    }

    private static String seconds(Duration duration) {
        return duration.toMillis() / 1000.0 + " s";
    }
}

package io.distlock.benchmarks;

import java.time.Duration;

/**
 * Size of the {@link Scenario#PROCESSES} scenario: how many child JVMs contend, with how many
 * threads each.
 *
 * @param processes child JVMs, at least 2 (checked by the parser): one JVM has nobody to share with
 * @param threads   threads in each child JVM, at least 1
 * @param warmup    how long the children run before the measurement window: longer than the
 *                  other scenarios' warm-up, since every load starts fresh JVMs that have compiled
 *                  nothing yet
 */
public record ProcessOptions(int processes, int threads, Duration warmup) {

    /** @return 3 JVMs of 4 threads each (the shape of the measurement), 6 s warm-up */
    public static ProcessOptions defaults() {
        return new ProcessOptions(3, 4, Duration.ofSeconds(6));
    }

    /**
     * @return these options
     * @throws IllegalArgumentException if fewer than two processes were asked for
     */
    ProcessOptions checked() {
        if (processes < 2) {
            throw new IllegalArgumentException("--processes must be at least 2 (the scenario measures how the lock "
                    + "moves between JVMs), got " + processes);
        }
        return this;
    }
}

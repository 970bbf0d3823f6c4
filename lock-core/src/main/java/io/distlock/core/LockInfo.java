package io.distlock.core;

import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.time.Instant;

/**
 * One lock this client holds or waits for, at the moment {@link LockClient#locks()} looked: what
 * an operator wants to see (the actuator endpoint shows it).
 *
 * @param name           the lock's name
 * @param type           the kind of lock ({@code reentrant}, {@code fair}, {@code fenced},
 *                       {@code read}, {@code write})
 * @param state          held or waited for
 * @param holderId       who holds it, or waits
 * @param holdCount      the holder's hold count; 0 while waiting
 * @param remainingLease how long the lease lasts by this client's clock (a watchdog lease until
 *                       its next renewal), or {@code null} while waiting
 * @param since          when it was acquired, or when the wait began
 * @param watchdog       whether the watchdog renews the lease (never while waiting)
 */
public record LockInfo(String name, String type, State state, String holderId, int holdCount,
                       @Nullable Duration remainingLease, Instant since, boolean watchdog) {

    /** Whether the lock is held or waited for. */
    public enum State {
        /** The holder has it. */
        HELD,
        /** The holder waits for it. */
        WAITING
    }
}

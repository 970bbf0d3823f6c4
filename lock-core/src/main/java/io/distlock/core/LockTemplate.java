package io.distlock.core;

import io.distlock.core.internal.engine.LockId;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Runs code under a lock in one call, for code that does not want to write the
 * lock/try/finally/unlock dance; usable with or without Spring.
 *
 * <pre>{@code
 * LockTemplate template = new LockTemplate(client);
 * Receipt r = template.execute("order:42", Duration.ofSeconds(3), null, () -> pay(order));
 * }</pre>
 *
 * A {@code null} wait time means the template's default (zero unless configured: try once); a
 * {@code null} lease time means the template's default (unless configured, the watchdog keeps
 * the lease until the action returns). Not
 * acquiring in time throws {@link LockAcquisitionException}; an interrupted wait throws it too,
 * with the thread's interrupt status kept.
 */
public final class LockTemplate {

    private final LockClient client;
    private final Duration defaultWaitTime;
    private final @Nullable Duration defaultLeaseTime;

    /**
     * A template whose default wait time is zero (try once).
     *
     * @param client where locks come from
     */
    public LockTemplate(LockClient client) {
        this(client, Duration.ZERO);
    }

    /**
     * @param client          where locks come from
     * @param defaultWaitTime used when a call passes {@code null} as its wait time; not negative
     */
    public LockTemplate(LockClient client, Duration defaultWaitTime) {
        this(client, defaultWaitTime, null);
    }

    /**
     * @param client           where locks come from
     * @param defaultWaitTime  used when a call passes {@code null} as its wait time; not negative
     * @param defaultLeaseTime used when a call passes {@code null} as its lease time; {@code null}
     *                         or zero means the watchdog keeps the lease until release
     */
    public LockTemplate(LockClient client, Duration defaultWaitTime, @Nullable Duration defaultLeaseTime) {
        this.client = Objects.requireNonNull(client, "client must not be null");
        this.defaultWaitTime = checkNotNegative(Objects.requireNonNull(defaultWaitTime,
                "defaultWaitTime must not be null"), "defaultWaitTime");
        this.defaultLeaseTime = defaultLeaseTime == null ? null : checkNotNegative(defaultLeaseTime, "defaultLeaseTime");
    }

    /**
     * Runs {@code action} while holding the lock, and returns its result.
     *
     * @param name      lock name
     * @param waitTime  how long to wait for the lock; {@code null} = template default
     * @param leaseTime lease; {@code null} = template default; zero = watchdog until the action returns
     * @param action    the work
     * @param <T>       result type
     * @return what the action returned
     * @throws LockAcquisitionException if the lock was not acquired in time
     * @throws LockLostException        if the lease was lost before the action finished
     */
    public <T extends @Nullable Object> T execute(String name, @Nullable Duration waitTime,
                                                  @Nullable Duration leaseTime, Supplier<T> action) {
        Objects.requireNonNull(action, "action must not be null");
        try (LockHandle ignored = acquire(name, waitTime, leaseTime)) {
            return action.get();
        }
    }

    /**
     * Runs {@code action} while holding the lock.
     *
     * @param name      lock name
     * @param waitTime  how long to wait; {@code null} = template default
     * @param leaseTime lease; {@code null} = template default; zero = watchdog
     * @param action    the work
     * @throws LockAcquisitionException if the lock was not acquired in time
     */
    public void run(String name, @Nullable Duration waitTime, @Nullable Duration leaseTime, Runnable action) {
        Objects.requireNonNull(action, "action must not be null");
        execute(name, waitTime, leaseTime, () -> {
            action.run();
            return null;
        });
    }

    /**
     * Acquires the lock for the calling thread; release it by closing the handle.
     *
     * @param name      lock name
     * @param waitTime  how long to wait; {@code null} = template default
     * @param leaseTime lease; {@code null} = template default; zero = watchdog until closed
     * @return the handle
     * @throws LockAcquisitionException if the lock was not acquired in time or the wait was interrupted
     */
    public LockHandle acquire(String name, @Nullable Duration waitTime, @Nullable Duration leaseTime) {
        return acquire(client.getLock(name), "lock '" + name + "'", "another holder has it", waitTime, leaseTime);
    }

    /**
     * Runs {@code action} while holding a permit of a semaphore (see {@link RedisSemaphore}), and
     * returns its result.
     *
     * @param name      semaphore name
     * @param permits   the semaphore's permit count, &gt; 0, the same in every client
     * @param waitTime  how long to wait for a permit; {@code null} = template default
     * @param leaseTime lease; {@code null} = template default; zero = watchdog until the action returns
     * @param action    the work
     * @param <T>       result type
     * @return what the action returned
     * @throws LockAcquisitionException if no permit was free in time
     * @throws LockLostException        if the lease was lost before the action finished
     */
    public <T extends @Nullable Object> T executeWithPermit(String name, int permits, @Nullable Duration waitTime,
                                                            @Nullable Duration leaseTime, Supplier<T> action) {
        Objects.requireNonNull(action, "action must not be null");
        try (LockHandle ignored = acquirePermit(name, permits, waitTime, leaseTime)) {
            return action.get();
        }
    }

    /**
     * Takes a permit of a semaphore for the calling thread; give it back by closing the handle.
     *
     * @param name      semaphore name
     * @param permits   the semaphore's permit count, &gt; 0, the same in every client
     * @param waitTime  how long to wait; {@code null} = template default
     * @param leaseTime lease; {@code null} = template default; zero = watchdog until closed
     * @return the handle
     * @throws LockAcquisitionException if no permit was free in time or the wait was interrupted
     */
    public LockHandle acquirePermit(String name, int permits, @Nullable Duration waitTime,
                                    @Nullable Duration leaseTime) {
        return acquire(client.getSemaphore(name, permits).asLock(), "a permit of semaphore '" + name + "'",
                "all " + permits + " permits are out", waitTime, leaseTime);
    }

    /**
     * @param what   what is acquired, for messages: {@code "lock 'order:42'"}
     * @param busyBy why it may not be acquired in time, for messages
     */
    private LockHandle acquire(RedisLock lock, String what, String busyBy, @Nullable Duration waitTime,
                               @Nullable Duration leaseTime) {
        Duration wait = waitTime == null ? defaultWaitTime : checkNotNegative(waitTime, "waitTime");
        Duration lease = leaseTime == null ? defaultLeaseTime : checkNotNegative(leaseTime, "leaseTime");
        String name = lock.getName();
        boolean acquired;
        try {
            // In nanoseconds, saturated: a lease under a millisecond stays a lease, not zero (the watchdog).
            acquired = lock.tryLock(TimeUnit.NANOSECONDS.convert(wait),
                    lease == null ? 0 : TimeUnit.NANOSECONDS.convert(lease), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            String message = "Interrupted while waiting for " + what;
            String group = keyFreeGroup(name);
            throw group == null ? new LockAcquisitionException(message, e)
                    : new LockAcquisitionException(message, group, e);
        }
        if (!acquired) {
            String message = "Could not acquire " + what + " within " + wait.toMillis() + " ms: " + busyBy;
            String group = keyFreeGroup(name);
            throw group == null ? new LockAcquisitionException(message) : new LockAcquisitionException(message, group);
        }
        return new LockHandle(lock);
    }

    /**
     * @return the part of a {@code kind:id} name before its first {@code ':'}, which names the kind
     *         of lock and not its key; {@code null} for a name without one ({@code "invoice-" + id}),
     *         all of which may be a key
     */
    private static @Nullable String keyFreeGroup(String name) {
        return name.indexOf(':') > 0 ? LockId.of(name).group() : null;
    }

    private static Duration checkNotNegative(Duration duration, String argument) {
        if (duration.isNegative()) {
            throw new IllegalArgumentException(argument + " must not be negative, but was " + duration);
        }
        return duration;
    }
}

package io.distlock.core;

import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * A lock could not be acquired within the wait time that was asked for. Thrown by
 * {@link LockTemplate} and by the Spring annotation; the {@link RedisLock} methods themselves
 * report a timeout by returning {@code false}, as {@link java.util.concurrent.locks.Lock} does.
 *
 * <p>Besides its message, which names the lock in full (its key included), it may carry the lock's
 * {@linkplain #getGroup() group}: the low-cardinality name that meters use, safe to show where a
 * key's value must not appear (an HTTP answer, a log aggregated by name).
 */
public class LockAcquisitionException extends LockException {

    private static final long serialVersionUID = 1L;

    private final @Nullable String group;
    private final @Nullable Duration waitTime;

    /**
     * @param message names the lock and the wait time
     */
    public LockAcquisitionException(String message) {
        super(message);
        this.group = null;
        this.waitTime = null;
    }

    /**
     * @param message names the lock and the wait time
     * @param cause   why the attempt failed, when it failed for a reason other than a timeout
     */
    public LockAcquisitionException(String message, Throwable cause) {
        super(message, cause);
        this.group = null;
        this.waitTime = null;
    }

    /**
     * @param message  names the lock and the wait time
     * @param group    the lock's group: {@code @DistributedLock}'s static name, or the lock name up to
     *                 its first {@code ':'}; never a key's value
     * @param waitTime how long the caller waited
     */
    public LockAcquisitionException(String message, String group, Duration waitTime) {
        super(message);
        this.group = Objects.requireNonNull(group, "group must not be null");
        this.waitTime = Objects.requireNonNull(waitTime, "waitTime must not be null");
    }

    /**
     * @param message  names the lock and the wait time
     * @param group    the lock's group (see {@link #LockAcquisitionException(String, String, Duration)})
     * @param waitTime how long the caller was to wait
     * @param cause    why the attempt failed, when it failed for a reason other than a timeout
     */
    public LockAcquisitionException(String message, String group, Duration waitTime, Throwable cause) {
        super(message, cause);
        this.group = Objects.requireNonNull(group, "group must not be null");
        this.waitTime = Objects.requireNonNull(waitTime, "waitTime must not be null");
    }

    /**
     * @return the lock's group: {@code @DistributedLock}'s static name ({@code OrderService.process}),
     *         or for {@link LockTemplate} the lock name up to its first {@code ':'}; never a key's
     *         value. Empty if whoever threw this did not say.
     */
    public Optional<String> getGroup() {
        return Optional.ofNullable(group);
    }

    /** @return how long the caller waited (or was to wait), if whoever threw this said */
    public Optional<Duration> getWaitTime() {
        return Optional.ofNullable(waitTime);
    }
}

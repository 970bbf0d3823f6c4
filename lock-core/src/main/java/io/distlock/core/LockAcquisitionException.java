package io.distlock.core;

import org.jspecify.annotations.Nullable;

import java.util.Objects;

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

    /**
     * @param message names the lock and the wait time
     */
    public LockAcquisitionException(String message) {
        super(message);
        this.group = null;
    }

    /**
     * @param message names the lock and the wait time
     * @param cause   why the attempt failed, when it failed for a reason other than a timeout
     */
    public LockAcquisitionException(String message, Throwable cause) {
        super(message, cause);
        this.group = null;
    }

    /**
     * @param message names the lock and the wait time
     * @param group   the lock's group: {@code @DistributedLock}'s static name, or a lock name's part
     *                before its first {@code ':'}; never a key's value
     */
    public LockAcquisitionException(String message, String group) {
        super(message);
        this.group = Objects.requireNonNull(group, "group must not be null");
    }

    /**
     * @param message names the lock and the wait time
     * @param group   the lock's group (see {@link #LockAcquisitionException(String, String)})
     * @param cause   why the attempt failed, when it failed for a reason other than a timeout
     */
    public LockAcquisitionException(String message, String group, Throwable cause) {
        super(message, cause);
        this.group = Objects.requireNonNull(group, "group must not be null");
    }

    /**
     * @return the lock's group: {@code @DistributedLock}'s static name ({@code OrderService.process}),
     *         or for a {@link LockTemplate} lock named {@code kind:id} its {@code kind}; never a
     *         key's value. {@code null} if whoever threw this did not say (a template lock whose
     *         name has no {@code ':'} has no part that is surely not a key).
     */
    public @Nullable String getGroup() {
        return group;
    }
}

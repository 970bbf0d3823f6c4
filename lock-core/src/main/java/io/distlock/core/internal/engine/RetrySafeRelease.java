package io.distlock.core.internal.engine;

/**
 * A lock whose release may be sent again after it failed with
 * {@link io.distlock.core.LockException} (no answer in time): the release stays in the holder's
 * books as unconfirmed, and Redis answers a run of it again as it answered the first (see the
 * package's exactly-once answers), so the retry ends that hold once. The composite locks
 * ({@link io.distlock.core.MultiLock}, {@link io.distlock.core.RedLock}) are not: a failed release
 * of one has already taken its hold out of its books and released its components, each with its
 * own retry, so a retry would be refused as not held, or release another hold of a component.
 * Composites retry only the components that are this. Implemented by {@link ScriptedLock}.
 */
public interface RetrySafeRelease {
}

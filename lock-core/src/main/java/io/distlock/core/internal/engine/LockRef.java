package io.distlock.core.internal.engine;

/**
 * One lock as the engine addresses it: its name and group, its Redis keys, and its kind.
 *
 * @param id       name (already checked) and group
 * @param keys     its Redis keys
 * @param protocol its kind: how it is taken and released in Redis
 */
record LockRef(LockId id, LockKeys keys, LockProtocol protocol) {

    /** @return the lock's name */
    String name() {
        return id.name();
    }
}

package io.distlock.core.internal.engine;

/**
 * Who a lock is, as events and metrics see it: its full name and the low-cardinality group it is
 * counted under (the {@code @DistributedLock} static name, or the name up to its first {@code ':'}).
 *
 * @param name  the lock's name, e.g. {@code "order:42"}
 * @param group the group, e.g. {@code "order"}
 */
public record LockId(String name, String group) {

    /**
     * @param name a lock name
     * @return the id whose group is the name up to its first {@code ':'} (all of it if it has none)
     */
    public static LockId of(String name) {
        int colon = name.indexOf(':');
        return new LockId(name, colon > 0 ? name.substring(0, colon) : name);
    }
}

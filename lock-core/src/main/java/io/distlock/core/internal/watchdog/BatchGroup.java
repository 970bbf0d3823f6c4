package io.distlock.core.internal.watchdog;

import io.distlock.core.internal.engine.LockProtocol;

/**
 * Holds one renewal script call may renew together: same kind of lock, same cluster slot.
 *
 * @param protocol the kind of lock, whose script renews them
 * @param slot     the cluster hash slot of their lock keys (a constant when not on a cluster)
 */
record BatchGroup(LockProtocol protocol, int slot) {
}

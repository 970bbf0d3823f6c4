package io.distlock.core.internal.engine;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Makes the ids of one client: a hold's (see {@code lock.lua}) or a force-unlock call's (see
 * {@code force_unlock.lua}). Each is the client's random {@linkplain #prefix() prefix} and a
 * counter, so ids are unique among all ids of all clients, and short.
 */
final class HoldIds {

    private final String prefix = Long.toString(ThreadLocalRandom.current().nextLong(1L << 40, 1L << 41),
            Character.MAX_RADIX) + ".";
    private final AtomicLong ids = new AtomicLong();

    /** @return a new id, unique among all ids of all clients */
    String newId() {
        return prefix + Long.toString(ids.incrementAndGet(), Character.MAX_RADIX);
    }

    /**
     * @return what every id of this client starts with: the lock hash notes the holding client by
     *         it ({@code '#client'}), a short tag every hold carries, rather than the 36-character
     *         client id
     */
    String prefix() {
        return prefix;
    }
}

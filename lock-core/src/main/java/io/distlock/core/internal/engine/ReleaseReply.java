package io.distlock.core.internal.engine;

import java.util.List;

/**
 * What one release script call answered ({@code unlock.lua}, {@code rw_unlock.lua}, fair.lua's
 * {@code 'unlock'}). A release names the hold it ends, and Redis keeps its answer a while under a
 * key of that hold's ({@code release_answer.lua}), so a release run twice (Lettuce sends a command
 * again after a reconnect; the engine sends an unconfirmed release again) answers as its first run
 * did: "released before" is never taken for "never held", nor the reverse.
 *
 * @param outcome what the call found
 * @param count   {@link Outcome#RELEASED} and {@link Outcome#RELEASED_BEFORE}: the holder's hold
 *                count the release left (0: the holder holds nothing more); {@link Outcome#NOT_THERE}:
 *                the holder's hold count, unchanged; {@link Outcome#NOT_HELD},
 *                {@link Outcome#NOT_HELD_BEFORE}: 0
 */
public record ReleaseReply(Outcome outcome, long count) {

    /** What a release call found. */
    public enum Outcome {
        /** The hold was there and this run released it. */
        RELEASED,
        /** An earlier run of this same release (or a hand-off of the hold) released it. */
        RELEASED_BEFORE,
        /** The hold is not there (now, or when an earlier run of this release looked), but the holder holds others. */
        NOT_THERE,
        /** The holder holds nothing: its lease expired, or the lock was deleted. */
        NOT_HELD,
        /** The holder held nothing when an earlier run of this same release looked. */
        NOT_HELD_BEFORE
    }

    /**
     * @param reply the script's reply: {@code {1, count}} released, {@code {2, count}} released
     *              before, {@code {0, count}} not there, {@code {-1, 0}} not held, {@code {-2, 0}}
     *              not held when an earlier run looked
     * @return the reply
     */
    static ReleaseReply of(List<Long> reply) {
        long code = reply.get(0);
        Outcome outcome = code == 1 ? Outcome.RELEASED : code == 2 ? Outcome.RELEASED_BEFORE
                : code == 0 ? Outcome.NOT_THERE : code == -1 ? Outcome.NOT_HELD : Outcome.NOT_HELD_BEFORE;
        return new ReleaseReply(outcome, reply.get(1));
    }

    /** @return whether the holder has no hold of this kind left in Redis after this release */
    public boolean nothingLeft() {
        return count == 0;
    }

    /** @return whether this run changed the lock (anything else changed nothing there is to replicate) */
    boolean changed() {
        return outcome == Outcome.RELEASED;
    }
}

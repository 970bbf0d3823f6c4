package io.distlock.faults.checker;

import java.util.List;

/**
 * Something the oracle found in a history: a violation, or (with an {@link Excuse}) an overlap an
 * honest lease expiry explains.
 *
 * @param kind     e.g. {@code OVERLAP}, {@code TOKEN}, {@code FIFO}, {@code WAIT}
 * @param message  what happened, in words
 * @param involved the operations concerned (none for something left in Redis)
 */
public record Finding(String kind, String message, List<OpRecord> involved) {

    /**
     * @return when the finding could first be seen in the history ({@link System#nanoTime()}): the
     *         latest entry (or, for an operation without a critical section, the latest call start)
     *         of the operations involved; -1 if none is involved
     */
    public long seenAt() {
        return involved.stream().mapToLong(op -> op.held() ? op.entry() : op.callStart()).max().orElse(-1);
    }
}

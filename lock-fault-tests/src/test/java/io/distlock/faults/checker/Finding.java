package io.distlock.faults.checker;

import java.util.List;

/**
 * Something the oracle found in a history: a violation, or an overlap the library excused by
 * telling the earlier holder its lease was lost.
 *
 * @param kind     e.g. {@code OVERLAP}, {@code TOKEN}, {@code WAIT}
 * @param message  what happened, in words
 * @param involved the operations concerned (none for a hold left in Redis)
 */
public record Finding(String kind, String message, List<OpRecord> involved) {
}

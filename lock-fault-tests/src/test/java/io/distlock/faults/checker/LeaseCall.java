package io.distlock.faults.checker;

/**
 * One acquisition call that set a hold's lease: the first call, a re-entry, or one of two
 * overlapping async calls ({@link System#nanoTime()} values).
 *
 * @param start when the call began: its script ran after this
 * @param end   when it returned {@code true}: its script ran before this
 */
public record LeaseCall(long start, long end) {

    /** @return this call as {@code start:end} */
    String toText() {
        return start + ":" + end;
    }

    /**
     * @param text as written by {@link #toText()}
     * @return the call
     */
    static LeaseCall parse(String text) {
        int colon = text.indexOf(':');
        return new LeaseCall(Long.parseLong(text.substring(0, colon)), Long.parseLong(text.substring(colon + 1)));
    }
}

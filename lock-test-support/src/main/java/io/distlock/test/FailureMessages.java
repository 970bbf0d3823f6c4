package io.distlock.test;

import java.util.ArrayList;
import java.util.List;

/**
 * Every text a failure can show: for tests that check a secret (a password) appears in none of
 * them.
 */
public final class FailureMessages {

    private static final int MAX_DEPTH = 30;

    private FailureMessages() {
    }

    /**
     * @param failure an exception, or {@code null}
     * @return the message and {@code toString()} of the failure, its causes and suppressed
     *         exceptions, to a depth of 30
     */
    public static List<String> of(Throwable failure) {
        List<String> messages = new ArrayList<>();
        collect(failure, messages, 0);
        return messages;
    }

    private static void collect(Throwable t, List<String> messages, int depth) {
        if (t == null || depth > MAX_DEPTH) {
            return;
        }
        messages.add(String.valueOf(t.getMessage()));
        messages.add(t.toString());
        for (Throwable suppressed : t.getSuppressed()) {
            collect(suppressed, messages, depth + 1);
        }
        collect(t.getCause(), messages, depth + 1);
    }
}

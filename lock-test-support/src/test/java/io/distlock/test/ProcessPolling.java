package io.distlock.test;

/** Whether OS processes live, for the fixture's own tests (wait for them with {@link Polling#within}). */
final class ProcessPolling {

    private ProcessPolling() {
    }

    /** Whether an OS process with this pid exists and is not a zombie. */
    static boolean processAlive(long pid) {
        boolean exists = ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        return exists && Signals.procState(pid).map(state -> state != 'Z' && state != 'X').orElse(true);
    }
}

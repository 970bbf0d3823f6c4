package io.distlock.faults.checker;

/** The faults the injector applies to the Redis under test and to the workers. */
public enum FaultKind {
    /** {@code CLIENT PAUSE <ms> ALL}: no command of any client is served. */
    CLIENT_PAUSE_ALL,
    /** {@code CLIENT PAUSE <ms> WRITE}: writes (and so the lock scripts) wait. */
    CLIENT_PAUSE_WRITE,
    /** {@code DEBUG SLEEP}: the server itself stops. */
    DEBUG_SLEEP,
    /** {@code CLIENT KILL TYPE normal}: command connections dropped. */
    KILL_NORMAL,
    /** {@code CLIENT KILL TYPE pubsub}: the wake-up connections dropped. */
    KILL_PUBSUB,
    /** The proxy in front of Redis holds every reply back for a while. */
    PROXY_DELAY,
    /** The proxy swallows the next reply and closes that connection: the command ran, the client never heard. */
    PROXY_DROP,
    /** A worker JVM frozen with SIGSTOP for longer than the watchdog lease, then SIGCONT. */
    WORKER_PAUSE
}

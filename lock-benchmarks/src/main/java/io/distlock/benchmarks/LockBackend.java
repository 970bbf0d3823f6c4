package io.distlock.benchmarks;

import java.util.OptionalLong;
import java.util.concurrent.locks.Lock;

/** A distributed lock implementation under test, connected to the benchmark's Redis. */
public interface LockBackend extends AutoCloseable {

    /** @return the name printed in the report, e.g. {@code "distlock"} */
    String name();

    /**
     * @param name lock name, unique within the benchmark run
     * @return the lock of that name; acquiring it without a lease uses watchdog renewal
     */
    Lock lock(String name);

    /**
     * @param name lock name
     * @return the fair (FIFO) lock of that name
     */
    Lock fairLock(String name);

    /**
     * @param name lock name
     * @return the read half of the read-write lock of that name
     */
    Lock readLock(String name);

    /**
     * @param names names of the component locks
     * @return one lock over all of them, all or nothing
     */
    Lock multiLock(String... names);

    /**
     * @param name    semaphore name
     * @param permits its permit count
     * @return one permit of the semaphore as a lock: {@code lock()} takes a permit (renewed by the
     *         watchdog, or without a lease where the backend's permits have none), {@code unlock()}
     *         gives back the calling thread's; the other methods are not supported
     */
    Lock permit(String name, int permits);

    /** @return the most locks the client's watchdog renews with one script call */
    int watchdogBatchSize();

    /**
     * @return how many held locks the client has reported lost since it connected, or empty if it
     *         does not report losses (or was not connected to count them)
     */
    OptionalLong lostLocks();

    /**
     * @return how many lease renewals the client has reported failed (Redis errors) since it
     *         connected, or empty if it does not report them (or was not connected to count them)
     */
    OptionalLong renewalFailures();

    /** Disconnects from Redis. */
    @Override
    void close();
}

package io.distlock.benchmarks;

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

    /** Disconnects from Redis. */
    @Override
    void close();
}

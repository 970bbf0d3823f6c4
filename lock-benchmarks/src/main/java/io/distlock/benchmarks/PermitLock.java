package io.distlock.benchmarks;

import org.redisson.api.RPermitExpirableSemaphore;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;

/**
 * A Redisson {@link RPermitExpirableSemaphore} as a {@link Lock} for the benchmark loops:
 * {@code lock()} takes a permit, {@code unlock()} gives back the calling thread's latest, by its id.
 */
final class PermitLock implements Lock {

    private final RPermitExpirableSemaphore semaphore;
    private final ThreadLocal<Deque<String>> held = ThreadLocal.withInitial(ArrayDeque::new);

    /** @param semaphore the semaphore whose permits this takes */
    PermitLock(RPermitExpirableSemaphore semaphore) {
        this.semaphore = semaphore;
    }

    @Override
    public void lock() {
        try {
            held.get().push(semaphore.acquire());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while taking a permit", e);
        }
    }

    @Override
    public void unlock() {
        String permitId = held.get().poll();
        if (permitId == null) {
            throw new IllegalMonitorStateException("the thread holds no permit");
        }
        semaphore.release(permitId);
    }

    @Override
    public void lockInterruptibly() {
        throw new UnsupportedOperationException("the benchmark takes permits with lock()");
    }

    @Override
    public boolean tryLock() {
        throw new UnsupportedOperationException("the benchmark takes permits with lock()");
    }

    @Override
    public boolean tryLock(long time, TimeUnit unit) {
        throw new UnsupportedOperationException("the benchmark takes permits with lock()");
    }

    @Override
    public Condition newCondition() {
        throw new UnsupportedOperationException("a semaphore has no conditions");
    }
}

package io.distlock.spring.aop;

import io.distlock.core.FencedLock;
import io.distlock.core.LockLostException;
import io.distlock.core.RedisLock;
import io.distlock.spring.LockContext;

import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/** The {@link LockContext} of one locked call: its locks, under one holder id. */
final class HeldLockContext implements LockContext {

    private final String name;
    private final List<RedisLock> locks;
    private final RedisLock all;
    private final String holderId;
    private final Supplier<CompletionStage<LockLostException>> lossSignal;

    /**
     * @param name       the annotation's static name
     * @param locks      the call's locks
     * @param all        the same locks as one
     * @param holderId   who holds them
     * @param lossSignal the call's loss signal
     */
    HeldLockContext(String name, List<RedisLock> locks, RedisLock all, String holderId,
                    Supplier<CompletionStage<LockLostException>> lossSignal) {
        this.name = name;
        this.locks = locks;
        this.all = all;
        this.holderId = holderId;
        this.lossSignal = lossSignal;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public List<String> lockNames() {
        return locks.stream().map(RedisLock::getName).toList();
    }

    @Override
    public String holderId() {
        return holderId;
    }

    @Override
    public Duration remainingLease() {
        long shortest = Long.MAX_VALUE;
        for (RedisLock lock : locks) {
            long ttl = lock.remainingTimeToLive();
            if (ttl == -1) {
                continue; // no expiry set: not bounded by this lock
            }
            shortest = Math.min(shortest, Math.max(0, ttl));
        }
        return shortest == Long.MAX_VALUE ? Duration.ZERO : Duration.ofMillis(shortest);
    }

    @Override
    public OptionalLong fencingToken() {
        for (RedisLock lock : locks) {
            if (lock instanceof FencedLock fenced) {
                return OptionalLong.of(fenced.getToken(holderId));
            }
        }
        return OptionalLong.empty();
    }

    @Override
    public CompletionStage<LockLostException> whenLost() {
        return lossSignal.get().toCompletableFuture().copy();  // cancelling a copy leaves the call's own
    }

    @Override
    public boolean confirmHeld(Duration minLease) {
        return all.confirmHeld(holderId, minLease);
    }

    @Override
    public boolean isLost() {
        return !locks.stream().allMatch(lock -> lock.isHeldBy(holderId));
    }

    @Override
    public String toString() {
        return "LockContext[" + name + " " + lockNames() + ", holder " + holderId + "]";
    }
}

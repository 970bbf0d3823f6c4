package io.distlock.spring.aop;

import io.distlock.core.FencedLock;
import io.distlock.core.RedisLock;
import io.distlock.spring.LockContext;

import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;

/** The {@link LockContext} of one locked call: its locks, under one holder id. */
final class HeldLockContext implements LockContext {

    private final String name;
    private final List<RedisLock> locks;
    private final String holderId;

    HeldLockContext(String name, List<RedisLock> locks, String holderId) {
        this.name = name;
        this.locks = locks;
        this.holderId = holderId;
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
    public boolean isLost() {
        return !locks.stream().allMatch(lock -> lock.isHeldBy(holderId));
    }

    @Override
    public String toString() {
        return "LockContext[" + name + " " + lockNames() + ", holder " + holderId + "]";
    }
}

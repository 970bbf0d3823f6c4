package io.distlock.spring;

import io.distlock.core.LockAcquisitionException;
import io.distlock.core.LockClient;
import io.distlock.core.RedisLock;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.ObjectProvider;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The {@link DistributedLock} advice: acquire (all keys, in sorted order, within one wait time)
 * → invoke → release (in reverse order), or on failure to acquire throw or skip as asked.
 */
final class DistributedLockInterceptor implements MethodInterceptor {

    private final LockedMethods methods;
    private final LockNameResolver names;
    private final ObjectProvider<LockClient> client;

    /**
     * @param client looked up at the first call, so proxying beans at startup does not connect
     *               to Redis before the application context is ready for it
     */
    DistributedLockInterceptor(LockedMethods methods, LockNameResolver names, ObjectProvider<LockClient> client) {
        this.methods = methods;
        this.names = names;
        this.client = client;
    }

    @Override
    public Object invoke(MethodInvocation invocation) throws Throwable {
        Object target = invocation.getThis();
        Class<?> targetClass = target == null ? invocation.getMethod().getDeclaringClass()
                : AopUtils.getTargetClass(target);
        LockedMethod locked = methods.find(invocation.getMethod(), targetClass);
        if (locked == null) {
            return invocation.proceed();
        }
        List<String> lockNames = names.lockNames(locked, invocation.getMethod(), invocation.getArguments(), target);
        List<RedisLock> held = acquireAll(lockNames, locked);
        if (held == null) {
            if (locked.onFailure() == OnFailure.SKIP) {
                return locked.returnsOptional() ? Optional.empty() : null;
            }
            throw new LockAcquisitionException("Could not acquire lock " + String.join(", ", lockNames) + " within "
                    + locked.waitTime().toMillis() + " ms (" + locked.name() + ")");
        }
        Throwable failure = null;
        try {
            return invocation.proceed();
        } catch (Throwable t) {
            failure = t;
            throw t;
        } finally {
            releaseAll(held, failure);
        }
    }

    /** @return the held locks, or {@code null} if one was not acquired in time (nothing held then) */
    private List<RedisLock> acquireAll(List<String> names, LockedMethod locked) throws InterruptedException {
        long deadline = System.nanoTime() + locked.waitTime().toNanos();
        long leaseMillis = locked.leaseTime() == null ? 0 : locked.leaseTime().toMillis();
        List<RedisLock> held = new ArrayList<>(names.size());
        boolean complete = false;
        try {
            for (String name : names) {
                RedisLock lock = client.getObject().getLock(name);
                long waitMillis = Math.max(0, Duration.ofNanos(deadline - System.nanoTime()).toMillis());
                if (!lock.tryLock(waitMillis, leaseMillis, TimeUnit.MILLISECONDS)) {
                    return null;
                }
                held.add(lock);
            }
            complete = true;
            return held;
        } finally {
            if (!complete) {
                releaseAll(held, null);
            }
        }
    }

    /** Releases in reverse order; a failure to release never hides the method's own exception. */
    private static void releaseAll(List<RedisLock> held, Throwable methodFailure) {
        RuntimeException releaseFailure = null;
        for (int i = held.size() - 1; i >= 0; i--) {
            try {
                held.get(i).unlock();
            } catch (RuntimeException e) {
                if (methodFailure != null) {
                    methodFailure.addSuppressed(e);
                } else if (releaseFailure == null) {
                    releaseFailure = e;
                } else {
                    releaseFailure.addSuppressed(e);
                }
            }
        }
        if (releaseFailure != null) {
            throw releaseFailure;
        }
    }
}

package io.distlock.spring.aop;

import io.distlock.core.LockClient;
import io.distlock.core.RedisLock;
import io.distlock.spring.DistributedLock;
import io.distlock.spring.internal.CancelledCalls;
import org.aopalliance.intercept.MethodInvocation;
import org.aopalliance.intercept.MethodInterceptor;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.support.AopUtils;

import java.util.List;
import java.util.function.Supplier;

/**
 * The {@link DistributedLock} advice: works out the call's lock names and holder, then lets the
 * method's {@link ReturnStrategy} acquire → invoke → release.
 */
final class DistributedLockInterceptor implements MethodInterceptor {

    private final LockedMethods methods;
    private final LockNameResolver names;
    private final Supplier<TypedLocks> locks;
    private final Supplier<CancelledCalls> cancellations;

    /**
     * @param locks         looked up at the first call, so proxying beans at startup does not
     *                      connect to Redis before the application context is ready for it
     * @param cancellations counts calls stopped for a lost lease; looked up at the first call too
     */
    DistributedLockInterceptor(LockedMethods methods, LockNameResolver names, Supplier<TypedLocks> locks,
                               Supplier<CancelledCalls> cancellations) {
        this.methods = methods;
        this.names = names;
        this.locks = locks;
        this.cancellations = cancellations;
    }

    @Override
    public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
        Object target = invocation.getThis();
        Class<?> targetClass = target == null ? invocation.getMethod().getDeclaringClass()
                : AopUtils.getTargetClass(target);
        LockedMethod locked = methods.find(invocation.getMethod(), targetClass);
        if (locked == null) {
            return invocation.proceed();
        }
        List<String> lockNames = names.lockNames(locked, invocation.getArguments(), target);
        TypedLocks typed = locks.get();
        List<RedisLock> held = lockNames.stream().map(name -> typed.lock(locked.type(), name, locked.name(), locked.permits())).toList();
        return locked.returns().invoke(invocation, new LockedCall(locked, typed.client(), held,
                holderFor(locked, typed.client(), lockNames), cancellations.get()));
    }

    /**
     * A nested call re-enters the locks of an enclosing call on this thread; otherwise a call that
     * ends with the method holds under the thread's id (re-entrant with the thread's own use of
     * the lock), and one that outlives it under an id of its own.
     */
    private static String holderFor(LockedMethod locked, LockClient client, List<String> lockNames) {
        if (locked.returns().outlivesCall()) {
            return LockedCall.newOperationHolder(client);
        }
        return CurrentLockContexts.holderOfAny(lockNames).orElseGet(client::currentHolderId);
    }
}

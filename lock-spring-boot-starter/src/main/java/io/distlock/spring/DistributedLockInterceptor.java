package io.distlock.spring;

import io.distlock.core.LockClient;
import org.aopalliance.intercept.MethodInvocation;
import org.aopalliance.intercept.MethodInterceptor;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.ObjectProvider;

import java.util.List;

/**
 * The {@link DistributedLock} advice: works out the call's lock names and holder, then lets the
 * method's {@link ReturnStrategy} acquire → invoke → release.
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
        LockClient lockClient = client.getObject();
        return locked.returns().invoke(invocation, new LockedCall(locked, lockClient, lockNames,
                holderFor(locked, lockClient, lockNames)));
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
        return LockContext.holderOfAny(lockNames).orElseGet(client::currentHolderId);
    }
}

package io.distlock.spring.aop;

import io.distlock.spring.DistributedLock;
import org.jspecify.annotations.Nullable;
import java.lang.reflect.Method;

/**
 * {@code #root} of a {@link DistributedLock#key()} expression.
 *
 * @param method      the invoked method
 * @param args        its arguments
 * @param target      the bean
 * @param targetClass the bean's class
 */
// #root.args is the method's argument array, as Spring's own expression roots hand it over; a root
// is never compared.
@SuppressWarnings("ArrayRecordComponent")
public record LockKeyRoot(Method method, @Nullable Object[] args, @Nullable Object target, Class<?> targetClass) {

    /** @return the method's name, as {@code #root.methodName} */
    public String getMethodName() {
        return method.getName();
    }

    /** @return the method, as {@code #root.method} */
    public Method getMethod() {
        return method;
    }

    /** @return the arguments, as {@code #root.args} */
    public @Nullable Object[] getArgs() {
        return args;
    }

    /** @return the bean, as {@code #root.target} */
    public @Nullable Object getTarget() {
        return target;
    }

    /** @return the bean's class, as {@code #root.targetClass} */
    public Class<?> getTargetClass() {
        return targetClass;
    }
}

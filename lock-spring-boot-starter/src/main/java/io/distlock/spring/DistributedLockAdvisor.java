package io.distlock.spring;

import org.aopalliance.aop.Advice;
import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.aop.support.StaticMethodMatcherPointcut;
import org.springframework.core.annotation.AnnotationUtils;

import java.lang.System.Logger.Level;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

/**
 * Applies {@link DistributedLockInterceptor} to every bean method carrying
 * {@link DistributedLock}. Matching happens when beans are proxied, at startup: that is where
 * annotations are checked, and where a warning names annotated methods Spring AOP cannot
 * intercept (private, final or static).
 */
final class DistributedLockAdvisor extends AbstractPointcutAdvisor {

    private static final long serialVersionUID = 1L;
    private static final System.Logger LOG = System.getLogger(DistributedLockAdvisor.class.getName());

    private final transient DistributedLockInterceptor interceptor;
    private final transient Pointcut pointcut;

    DistributedLockAdvisor(LockedMethods methods, DistributedLockInterceptor interceptor, int order) {
        this.interceptor = interceptor;
        StaticMethodMatcherPointcut annotated = new StaticMethodMatcherPointcut() {
            @Override
            public boolean matches(Method method, Class<?> targetClass) {
                if (methods.find(method, targetClass) == null) {
                    return false;
                }
                int modifiers = method.getModifiers();
                if (Modifier.isPrivate(modifiers) || Modifier.isFinal(modifiers) || Modifier.isStatic(modifiers)) {
                    LOG.log(Level.WARNING, "@DistributedLock on " + targetClass.getName() + "." + method.getName()
                            + " has no effect: Spring AOP cannot intercept private, final or static methods");
                    return false;
                }
                return true;
            }
        };
        // Classes that cannot carry the annotation (the JDK's, for one) are passed over whole,
        // as Spring's own annotation-driven advisors do, instead of method by method.
        annotated.setClassFilter(type -> AnnotationUtils.isCandidateClass(type, DistributedLock.class));
        this.pointcut = annotated;
        setOrder(order);
    }

    @Override
    public Pointcut getPointcut() {
        return pointcut;
    }

    @Override
    public Advice getAdvice() {
        return interceptor;
    }
}

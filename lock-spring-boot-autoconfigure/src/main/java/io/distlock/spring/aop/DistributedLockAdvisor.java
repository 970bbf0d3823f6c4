package io.distlock.spring.aop;

import io.distlock.core.LockClient;
import io.distlock.spring.DistributedLock;
import io.distlock.spring.internal.CancelledCalls;
import org.aopalliance.aop.Advice;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.aop.support.StaticMethodMatcherPointcut;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.core.env.Environment;
import org.springframework.util.function.SingletonSupplier;

import java.lang.System.Logger.Level;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.function.Supplier;

/**
 * Applies {@link DistributedLockInterceptor} to every bean method carrying
 * {@link DistributedLock}. Matching happens when beans are proxied, at startup: that is where
 * annotations are checked, and where a warning names annotated methods Spring AOP cannot
 * intercept (private, final or static).
 * <p>
 * Spring Boot's auto-configuration defines one; an application that defines its own bean of this
 * type (for example with another order) replaces it.
 */
public final class DistributedLockAdvisor extends AbstractPointcutAdvisor {

    private static final long serialVersionUID = 1L;
    private static final System.Logger LOG = System.getLogger(DistributedLockAdvisor.class.getName());

    private final transient DistributedLockInterceptor interceptor;
    private final transient Pointcut pointcut;

    /**
     * @param settings       default wait and lease times, whether RedLock is configured, and the order
     * @param environment    resolves {@code ${...}} in wait and lease times
     * @param beanFactory    resolves {@code @bean} references in keys
     * @param client         the lock client, looked up at the first call, so that proxying beans at
     *                       startup does not connect to Redis before the application is ready for it
     * @param redLockMasters one client per RedLock master, looked up at the first call
     * @param cancellations  counts the calls stopped because their lease was lost, looked up at
     *                       the first call
     */
    public DistributedLockAdvisor(LockAdviceSettings settings, Environment environment, BeanFactory beanFactory,
                                  Supplier<LockClient> client, Supplier<List<LockClient>> redLockMasters,
                                  Supplier<CancelledCalls> cancellations) {
        LockedMethods methods = new LockedMethods(environment, settings);
        this.interceptor = new DistributedLockInterceptor(methods, new LockNameResolver(beanFactory),
                SingletonSupplier.of(() -> new TypedLocks(client.get(), redLockMasters.get())),
                SingletonSupplier.of(cancellations));
        StaticMethodMatcherPointcut annotated = new StaticMethodMatcherPointcut() {
            @Override
            public boolean matches(Method method, Class<?> targetClass) {
                // Static compiler-made methods that copy the annotation (Kotlin's body of an open
                // suspend function, ship$suspendImpl) are not what callers call, and could not be
                // proxied anyway: passed over without the checks (and warning) below.
                if (method.isSynthetic() && Modifier.isStatic(method.getModifiers())) {
                    return false;
                }
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
        setOrder(settings.order());
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

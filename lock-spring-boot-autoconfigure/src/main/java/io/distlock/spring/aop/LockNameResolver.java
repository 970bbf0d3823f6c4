package io.distlock.spring.aop;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.Expression;

import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/**
 * Evaluates a {@link LockedMethod}'s key for one call and turns it into lock names: one name for a
 * single value, the sorted distinct names for a Collection or array (so two callers listing the
 * same keys in different orders take them in the same order and cannot deadlock). A null or blank
 * value is an error, never the text "null".
 */
final class LockNameResolver {

    private final BeanFactory beanFactory;
    private final ParameterNameDiscoverer parameterNames = new DefaultParameterNameDiscoverer();

    LockNameResolver(BeanFactory beanFactory) {
        this.beanFactory = beanFactory;
    }

    /**
     * @return the lock names to hold, sorted
     * @throws IllegalArgumentException if the key evaluates to null, blank, or an empty collection
     */
    List<String> lockNames(LockedMethod locked, @Nullable Object[] args, @Nullable Object target) {
        Expression key = locked.key();
        if (key == null) {
            return List.of(locked.name());
        }
        Method method = locked.method();
        LockKeyRoot root = new LockKeyRoot(method, args, target, target == null ? method.getDeclaringClass()
                : target.getClass());
        MethodBasedEvaluationContext context = new MethodBasedEvaluationContext(root, method, args, parameterNames);
        context.setBeanResolver(new BeanFactoryResolver(beanFactory));
        Object value = key.getValue(context);
        TreeSet<String> names = new TreeSet<>();
        for (Object element : elements(value)) {
            names.add(locked.name() + ":" + text(element, key, locked));
        }
        if (names.isEmpty()) {
            throw new IllegalArgumentException(describe(key, locked)
                    + " evaluated to an empty collection: nothing to lock");
        }
        return List.copyOf(names);
    }

    private static List<@Nullable Object> elements(@Nullable Object value) {
        List<@Nullable Object> elements = new ArrayList<>();
        if (value instanceof Collection<?> collection) {
            elements.addAll(collection);
        } else if (value != null && value.getClass().isArray()) {
            for (int i = 0; i < Array.getLength(value); i++) {
                elements.add(Array.get(value, i));
            }
        } else {
            elements.add(value);
        }
        return elements;
    }

    private static String text(@Nullable Object element, Expression key, LockedMethod locked) {
        String text = element == null ? null : element.toString();
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException(describe(key, locked) + " evaluated to "
                    + (text == null ? "null" : "a blank value") + "; the method was not run");
        }
        return text;
    }

    private static String describe(Expression key, LockedMethod locked) {
        return "Lock key '" + key.getExpressionString() + "' of lock '" + locked.name() + "'";
    }
}

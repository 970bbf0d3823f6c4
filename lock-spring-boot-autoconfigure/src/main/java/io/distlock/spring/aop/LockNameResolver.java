package io.distlock.spring.aop;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.EvaluationException;
import org.springframework.expression.Expression;

import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Evaluates a {@link LockedMethod}'s key for one call and turns it into lock names: one name for a
 * single value, the sorted distinct names for a Collection or array (so two callers listing the
 * same keys in different orders take them in the same order and cannot deadlock). A null or blank
 * value is an error, never the text "null".
 */
final class LockNameResolver {

    /** A variable in a key expression: {@code #order} in {@code #order.id}. */
    private static final Pattern VARIABLE = Pattern.compile("#(\\w+)");

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
        Object value;
        try {
            value = key.getValue(context);
        } catch (EvaluationException e) {
            List<String> nullArguments = nullArguments(key, method, args);
            String message = describe(key, locked) + " on " + method.getDeclaringClass().getSimpleName() + "."
                    + method.getName() + " could not be evaluated: " + reason(e, nullArguments)
                    + "; the method was not run";
            // A null argument is the caller's mistake; a key that fails on good arguments is the code's.
            throw nullArguments.isEmpty() ? new IllegalStateException(message, e)
                    : new IllegalArgumentException(message, e);
        }
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

    private static String reason(EvaluationException e, List<String> nullArguments) {
        if (nullArguments.isEmpty()) {
            return String.valueOf(e.getMessage());
        }
        return "argument " + String.join(", ", nullArguments.stream().map(name -> "'" + name + "'").toList())
                + (nullArguments.size() == 1 ? " is" : " are") + " null (" + e.getMessage() + ")";
    }

    /**
     * @return the arguments the key refers to ({@code #name}, {@code #p0}, {@code #a0}) that are
     *         null: the usual reason a key such as {@code #order.id} cannot be evaluated
     */
    private List<String> nullArguments(Expression key, Method method, @Nullable Object[] args) {
        String[] names = parameterNames.getParameterNames(method);
        List<String> nulls = new ArrayList<>();
        Matcher reference = VARIABLE.matcher(key.getExpressionString());
        while (reference.find()) {
            String variable = reference.group(1);
            for (int i = 0; i < args.length; i++) {
                boolean named = names != null && i < names.length && variable.equals(names[i]);
                if ((named || variable.equals("p" + i) || variable.equals("a" + i)) && args[i] == null
                        && !nulls.contains(variable)) {
                    nulls.add(variable);
                }
            }
        }
        return nulls;
    }

    private static String describe(Expression key, LockedMethod locked) {
        return "Lock key '" + key.getExpressionString() + "' of lock '" + locked.name() + "'";
    }
}

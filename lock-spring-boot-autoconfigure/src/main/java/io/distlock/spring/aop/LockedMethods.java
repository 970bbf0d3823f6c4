package io.distlock.spring.aop;

import io.distlock.spring.DistributedLock;
import io.distlock.spring.LockType;
import io.distlock.spring.OnFailure;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.support.AopUtils;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.MethodClassKey;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.env.Environment;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.expression.spel.standard.SpelExpressionParser;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Finds {@link DistributedLock} on methods (also on interface methods and through
 * meta-annotations) and turns each into a {@link LockedMethod} once. Everything that can be
 * checked without a call is checked here, so a malformed key expression, a bad duration or an
 * impossible combination fails startup with a message naming the method.
 */
final class LockedMethods {

    private static final Optional<LockedMethod> NOT_LOCKED = Optional.empty();

    private final Environment environment;
    private final LockAdviceSettings settings;
    private final SpelExpressionParser parser = new SpelExpressionParser();
    private final ConcurrentHashMap<MethodClassKey, Optional<LockedMethod>> cache = new ConcurrentHashMap<>();

    LockedMethods(Environment environment, LockAdviceSettings settings) {
        this.environment = environment;
        this.settings = settings;
    }

    /**
     * @param method      the invoked method
     * @param targetClass the bean's class
     * @return the lock settings, or {@code null} if the method is not annotated
     * @throws InvalidLockAnnotationException if the annotation cannot work (at startup, from the pointcut)
     */
    @Nullable LockedMethod find(Method method, Class<?> targetClass) {
        return cache.computeIfAbsent(new MethodClassKey(method, targetClass), k -> resolve(method, targetClass))
                .orElse(null);
    }

    private Optional<LockedMethod> resolve(Method method, Class<?> targetClass) {
        Method specific = AopUtils.getMostSpecificMethod(method, targetClass);
        DistributedLock lock = AnnotatedElementUtils.findMergedAnnotation(specific, DistributedLock.class);
        if (lock == null) {
            lock = AnnotatedElementUtils.findMergedAnnotation(method, DistributedLock.class);
        }
        if (lock == null) {
            return NOT_LOCKED;
        }
        String where = "@DistributedLock on " + targetClass.getSimpleName() + "." + method.getName();
        if (lock.type() == LockType.RED_LOCK && !settings.redLockConfigured()) {
            throw new InvalidLockAnnotationException(where, "type RED_LOCK needs the independent Redis masters in "
                    + "distlock.redlock.nodes (one URL per master, 3 or 5 in practice)");
        }
        Class<?> returns = method.getReturnType();
        if (lock.onFailure() == OnFailure.SKIP && returns.isPrimitive() && returns != void.class) {
            throw new InvalidLockAnnotationException(where, "onFailure = SKIP cannot skip a method returning " + returns
                    + " (there is no value to return); return a wrapper type or Optional, or use THROW");
        }
        String name = lock.name().isBlank() ? targetClass.getSimpleName() + "." + method.getName() : lock.name();
        Expression key = lock.key().isBlank() ? null : parse(lock.key(), where);
        if (key != null) {
            LockKeyVariables.check(key, specific, where);
        }
        Duration wait = duration(lock.waitTime(), "waitTime", where);
        Duration lease = duration(lock.leaseTime(), "leaseTime", where);
        Duration minHold = duration(lock.minHoldTime(), "minHoldTime", where);
        if (minHold != null && lock.type() != LockType.REENTRANT && lock.type() != LockType.FENCED) {
            throw new InvalidLockAnnotationException(where, "minHoldTime needs a REENTRANT or FENCED lock; a "
                    + lock.type() + " lock cannot be kept taken after its release");
        }
        int permits = permits(lock, where);
        return Optional.of(new LockedMethod(name, specific, lock.type(), permits, key,
                wait != null ? wait : settings.defaultWaitTime(), lease != null ? lease : settings.defaultLeaseTime(),
                lock.onFailure(), lock.onLost(), minHold == null || minHold.isZero() ? null : minHold,
                ReturnStrategies.forMethod(specific, lock.onFailure(), where)));
    }

    /** @return the semaphore's permit count; 0 for the other kinds, which take none */
    private int permits(DistributedLock lock, String where) {
        String text = lock.permits();
        if (lock.type() != LockType.SEMAPHORE) {
            if (!text.isBlank()) {
                throw new InvalidLockAnnotationException(where, "permits = '" + text + "' needs type = SEMAPHORE; a "
                        + lock.type() + " lock has no permits");
            }
            return 0;
        }
        if (text.isBlank()) {
            throw new InvalidLockAnnotationException(where, "type SEMAPHORE needs permits: how many calls may hold "
                    + "a permit at a time, e.g. permits = \"5\" or \"${my.property:5}\"");
        }
        String resolved;
        try {
            resolved = environment.resolveRequiredPlaceholders(text).trim();
        } catch (IllegalArgumentException e) {
            throw new InvalidLockAnnotationException(where, "permits '" + text + "' cannot be resolved ("
                    + e.getMessage() + ")", e);
        }
        int permits;
        try {
            permits = Integer.parseInt(resolved);
        } catch (NumberFormatException e) {
            permits = 0;
        }
        if (permits <= 0) {
            throw new InvalidLockAnnotationException(where, "permits '" + text + "' is '" + resolved + "', not a "
                    + "positive whole number; use e.g. 5 or ${my.property:5}");
        }
        return permits;
    }

    private Expression parse(String expression, String where) {
        try {
            return parser.parseExpression(expression);
        } catch (ParseException e) {
            throw new InvalidLockAnnotationException(where, "key expression '" + expression + "' is malformed: "
                    + e.getMessage(), e);
        }
    }

    /** @return the attribute's duration, or {@code null} if it is empty */
    private @Nullable Duration duration(String text, String attribute, String where) {
        if (text.isBlank()) {
            return null;
        }
        String resolved;
        Duration duration;
        try {
            resolved = environment.resolveRequiredPlaceholders(text);
            duration = DurationStyle.detectAndParse(resolved.trim());
        } catch (IllegalArgumentException e) {
            throw new InvalidLockAnnotationException(where, attribute + " '" + text + "' is not a duration ("
                    + e.getMessage() + "); use e.g. 500ms, 3s or ${my.property:3s}", e);
        }
        if (duration.isNegative()) {
            throw new InvalidLockAnnotationException(where, attribute + " '" + text + "' is negative");
        }
        return duration;
    }
}

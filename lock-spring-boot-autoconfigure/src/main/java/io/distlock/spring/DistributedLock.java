package io.distlock.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs the annotated method while holding a distributed lock.
 *
 * <pre>{@code
 * @DistributedLock(key = "#order.id", waitTime = "${orders.lock.wait:3s}")
 * public Receipt pay(Order order) { ... }
 * }</pre>
 *
 * The lock's name is {@link #name()} (default {@code SimpleClassName.method}), followed by
 * {@code ':'} and the value of {@link #key()} when a key is given. Works on class and interface
 * methods and as a meta-annotation, on Spring beans called through their proxy (not on private
 * or final methods, nor on calls from the same object).
 */
@Target({ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface DistributedLock {

    /**
     * @return SpEL over the method's arguments: {@code #order.id}, {@code #p0},
     *         {@code #root.methodName}, bean references {@code @bean}. Null or blank values are an
     *         error. A Collection or array locks every element, all or nothing, in sorted order.
     *         Empty: the lock is {@link #name()} alone.
     */
    String key() default "";

    /**
     * @return static part of the lock name, also the {@code name} tag of metrics; default
     *         {@code SimpleClassName.method}
     */
    String name() default "";

    /** @return the kind of lock */
    LockType type() default LockType.REENTRANT;

    /**
     * @return for {@link LockType#SEMAPHORE} only, and required there: how many calls may hold a
     *         permit at a time, across every instance; a positive number or a {@code ${…}}
     *         placeholder, e.g. {@code "5"} or {@code "${partner.max-calls:5}"}. Every instance
     *         must use the same count (see {@code RedisSemaphore})
     */
    String permits() default "";

    /**
     * @return how long to wait, in Spring Boot's duration format with {@code ${...}}
     *         placeholders ({@code "500ms"}, {@code "${orders.lock.wait:3s}"}); empty =
     *         {@code distlock.wait-time}
     */
    String waitTime() default "";

    /**
     * @return lease, same format; empty = {@code distlock.lease-time}, or the watchdog if that
     *         is empty too
     */
    String leaseTime() default "";

    /** @return what to do when the lock is not acquired in time */
    OnFailure onFailure() default OnFailure.THROW;

    /**
     * @return what happens to the running method if its lease is lost; default
     *         {@link OnLost#REPORT}: it runs on and the loss is reported
     */
    OnLost onLost() default OnLost.REPORT;

    /**
     * @return how long the lock stays taken at least, counted from when the method started, same
     *         format; empty = released when the method ends. For {@code @Scheduled} jobs on
     *         several instances: a run that ends sooner leaves the lock taken, by nobody (not even
     *         this instance), for the rest of that time, so an instance whose clock or schedule is
     *         a little behind does not run the same tick again. Set it a little below the
     *         schedule's period. Reentrant and fenced locks only.
     */
    String minHoldTime() default "";
}

/**
 * distlock's Spring API: {@link io.distlock.spring.DistributedLock} on bean methods, its
 * {@link io.distlock.spring.LockType} and {@link io.distlock.spring.OnFailure}, and
 * {@link io.distlock.spring.LockContext} inside a locked method. The rest of the starter is laid
 * out by concern: {@code autoconfigure} (beans, {@code distlock.*} properties, the Redis
 * connection, startup checks), {@code aop} (the advice that takes and releases the locks),
 * {@code actuate} (health and the {@code distlock} endpoint) and {@code metrics}.
 */
@NullMarked
package io.distlock.spring;

import org.jspecify.annotations.NullMarked;

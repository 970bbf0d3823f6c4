/**
 * Spring Boot auto-configuration of distlock: the {@link io.distlock.core.LockClient} and
 * {@link io.distlock.core.LockTemplate} beans from {@code distlock.*} (else Spring Boot's own Redis
 * connection), the RedLock masters, the {@code @DistributedLock} advisor, and the startup checks
 * and failure analyzers that name a wrong property.
 */
@NullMarked
package io.distlock.spring.autoconfigure;

import org.jspecify.annotations.NullMarked;

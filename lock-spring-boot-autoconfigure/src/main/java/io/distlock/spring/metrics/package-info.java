/**
 * Micrometer metrics in a Spring Boot application: lock-core's meters
 * ({@link io.distlock.core.metrics.LockMetrics}) bound to the application's registry, for the
 * client and RedLock's masters, and a cap on the number of lock names they tag.
 */
@NullMarked
package io.distlock.spring.metrics;

import org.jspecify.annotations.NullMarked;

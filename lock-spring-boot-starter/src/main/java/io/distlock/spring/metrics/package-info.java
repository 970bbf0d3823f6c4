/**
 * Micrometer metrics of the lock engine: {@link io.distlock.spring.metrics.DistLockMetrics} turns
 * engine events into the {@code distlock.*} meters, tagged by static lock name, never by key.
 */
package io.distlock.spring.metrics;

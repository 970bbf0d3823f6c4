/**
 * Micrometer meters of a lock client: {@link io.distlock.core.metrics.LockMetrics} turns the
 * client's events into the {@code distlock.*} meters named in
 * {@link io.distlock.core.metrics.LockMeterNames}, tagged by static lock name, never by key.
 * Needs {@code io.micrometer:micrometer-core}, an optional dependency of lock-core; give a
 * registry to {@link io.distlock.core.LockClient.Builder#meterRegistry}, or bind a
 * {@code LockMetrics} yourself. The Spring Boot starter does the latter for its client.
 */
@NullMarked
package io.distlock.core.metrics;

import org.jspecify.annotations.NullMarked;

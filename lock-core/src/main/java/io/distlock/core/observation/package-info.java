/**
 * Micrometer Observations of the lock engine, when a {@link io.distlock.core.LockClient} is given
 * an {@code ObservationRegistry}: {@code distlock.acquire} (the wait) and {@code distlock.held}
 * (the hold). With micrometer-tracing they are spans under the caller's span; with a meter handler
 * they are the {@code distlock.acquire} and {@code distlock.held} timers and their
 * {@code .active} long task timers.
 */
@NullMarked
package io.distlock.core.observation;

import org.jspecify.annotations.NullMarked;

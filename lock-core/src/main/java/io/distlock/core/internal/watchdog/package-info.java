/**
 * Lease renewal: one periodic task per client renews every watchdog-held lease in batched,
 * pipelined script calls and reports leases that were lost.
 */
@NullMarked
package io.distlock.core.internal.watchdog;

import org.jspecify.annotations.NullMarked;

/**
 * Wake-ups of waiting acquisitions: one reference-counted subscription per lock channel, all on
 * one pub/sub connection, each release message waking one local waiter.
 */
@NullMarked
package io.distlock.core.internal.pubsub;

import org.jspecify.annotations.NullMarked;

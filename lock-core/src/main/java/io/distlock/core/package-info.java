/**
 * distlock's public engine API: {@link io.distlock.core.LockClient} hands out
 * {@link io.distlock.core.RedisLock}s; {@link io.distlock.core.LockTemplate} runs code under a lock;
 * {@link io.distlock.core.LockListener} observes what the engine does. The implementation lives in
 * {@code io.distlock.core.internal}: {@code engine} (acquisition, holds, release), {@code scripts}
 * (Lua), {@code pubsub} (wake-ups) and {@code watchdog} (lease renewal); the module exports none of
 * it, and it changes without notice. No Spring here.
 */
@NullMarked
package io.distlock.core;

import org.jspecify.annotations.NullMarked;

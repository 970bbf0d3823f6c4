/**
 * The lock itself: {@link io.distlock.core.engine.ScriptedLock} implements the {@code Lock}
 * contract once for every kind of lock, whose Redis side is a
 * {@link io.distlock.core.engine.LockProtocol}; {@link io.distlock.core.engine.Acquisition} is the
 * asynchronous acquire-or-wait state machine; {@link io.distlock.core.engine.LockEngine} is what
 * one client's locks share.
 */
package io.distlock.core.engine;

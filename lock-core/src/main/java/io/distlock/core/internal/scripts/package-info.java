/**
 * The engine's Lua scripts ({@code .lua} resources beside these classes, each with a header giving
 * KEYS, ARGV and return values) and how they are run: {@code EVALSHA}, reloaded on {@code NOSCRIPT}.
 */
@NullMarked
package io.distlock.core.internal.scripts;

import org.jspecify.annotations.NullMarked;

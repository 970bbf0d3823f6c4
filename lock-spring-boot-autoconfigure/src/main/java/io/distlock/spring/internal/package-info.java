/**
 * What the starter's API and its advice share, kept out of both so that neither depends on the
 * other for it. Not API: it may change in any release.
 */
@NullMarked
package io.distlock.spring.internal;

import org.jspecify.annotations.NullMarked;

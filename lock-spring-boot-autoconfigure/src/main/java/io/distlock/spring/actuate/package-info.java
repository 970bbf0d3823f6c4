/**
 * Actuator support: the {@code distlock} health indicator and the {@code distlock} endpoint (the
 * locks this instance holds or awaits; force-release of one by name).
 */
@NullMarked
package io.distlock.spring.actuate;

import org.jspecify.annotations.NullMarked;

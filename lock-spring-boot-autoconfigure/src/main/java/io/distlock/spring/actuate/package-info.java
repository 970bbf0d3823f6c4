/**
 * Actuator support: the {@code distlock} health indicator and the {@code distlock} endpoint (the
 * locks this instance holds or awaits; force-release of one by name).
 */
package io.distlock.spring.actuate;

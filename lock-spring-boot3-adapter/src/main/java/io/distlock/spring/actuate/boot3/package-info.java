/**
 * Actuator health on Spring Boot 3.5, compiled against Boot 3.5's actuator
 * ({@code lock-spring-boot3-adapter}); its auto-configuration only applies where Boot 3.5's health
 * API is on the classpath.
 */
@NullMarked
package io.distlock.spring.actuate.boot3;

import org.jspecify.annotations.NullMarked;

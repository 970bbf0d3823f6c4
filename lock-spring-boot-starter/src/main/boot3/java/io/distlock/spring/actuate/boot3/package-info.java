/**
 * Actuator health on Spring Boot 3.5. These sources ({@code src/main/boot3}) are compiled against
 * Spring Boot 3.5's actuator, into the same jar as the rest; their auto-configuration only applies
 * where Boot 3.5's health API is on the classpath.
 */
package io.distlock.spring.actuate.boot3;

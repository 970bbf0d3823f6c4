/**
 * What is read from Spring Boot 4's own types, compiled against Boot 4 and left out by class
 * conditions on Boot 3.5 (where {@code lock-spring-boot3-adapter} reads Boot 3.5's). Not API: it
 * may change in any release.
 */
@NullMarked
package io.distlock.spring.internal.boot4;

import org.jspecify.annotations.NullMarked;

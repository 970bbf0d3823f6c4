/**
 * What is read from Spring Boot 3.5's own types, compiled against Boot 3.5 and left out by class
 * conditions on Boot 4 (where the auto-configuration's {@code internal.boot4} reads Boot 4's). Not
 * API: it may change in any release.
 */
@NullMarked
package io.distlock.spring.internal.boot3;

import org.jspecify.annotations.NullMarked;

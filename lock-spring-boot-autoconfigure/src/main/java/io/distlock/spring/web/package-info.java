/**
 * Web support: a lock that was not acquired in time answers an HTTP request to a Spring MVC or
 * WebFlux controller as a ProblemDetail (RFC 9457), 409 Conflict by default, instead of a server
 * error.
 */
@NullMarked
package io.distlock.spring.web;

import org.jspecify.annotations.NullMarked;

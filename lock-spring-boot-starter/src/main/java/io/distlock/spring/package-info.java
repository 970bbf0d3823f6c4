/**
 * distlock's Spring Boot integration: auto-configuration of the lock engine from
 * {@code distlock.*} (falling back to {@code spring.data.redis.*}), with startup checks that name
 * the wrong property.
 */
package io.distlock.spring;

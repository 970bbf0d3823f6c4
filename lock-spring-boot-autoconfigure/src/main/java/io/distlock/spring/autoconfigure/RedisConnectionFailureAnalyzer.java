package io.distlock.spring.autoconfigure;

import io.distlock.core.LockAcquisitionException;
import io.distlock.core.LockException;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports a {@link LockException} that stops startup (distlock could not connect: Redis down, wrong
 * credentials, untrusted certificate) as Spring Boot's "APPLICATION FAILED TO START" report: the
 * reason first, instead of at the bottom of a chain of bean creation errors. The message never
 * contains a password. A busy lock ({@link LockAcquisitionException}) is left to Spring Boot's default report.
 */
public class RedisConnectionFailureAnalyzer extends AbstractFailureAnalyzer<LockException> {

    @Override
    protected @Nullable FailureAnalysis analyze(Throwable rootFailure, LockException cause) {
        if (cause instanceof LockAcquisitionException) {
            return null; // a lock was busy, nothing is wrong with the connection
        }
        return new FailureAnalysis("distlock: " + cause.getMessage(),
                "Fix distlock's Redis connection: distlock.redis.url (or sentinel / cluster), username, password, "
                        + "ssl and ssl-bundle; without distlock.redis.* connection settings the spring.data.redis.* "
                        + "ones are used.", cause);
    }
}

package io.distlock.spring.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports an {@link InvalidLockPropertyException} as a startup failure that names the property,
 * what is wrong, and what to do.
 */
public class InvalidLockPropertyFailureAnalyzer extends AbstractFailureAnalyzer<InvalidLockPropertyException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidLockPropertyException cause) {
        return new FailureAnalysis(cause.getMessage(), cause.getAction(), cause);
    }
}

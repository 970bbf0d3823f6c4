package io.distlock.spring.aop;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports an {@link InvalidLockAnnotationException} as Spring Boot's startup failure report: the
 * annotation and what is wrong with it, instead of the bean creation exceptions around it.
 */
final class InvalidLockAnnotationFailureAnalyzer extends AbstractFailureAnalyzer<InvalidLockAnnotationException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidLockAnnotationException cause) {
        return new FailureAnalysis(cause.getMessage(), "Correct the " + cause.where() + " as described above;"
                + " the application cannot start with it.", cause);
    }
}

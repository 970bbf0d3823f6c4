package io.distlock.spring.aop;

import io.micrometer.context.ContextSnapshotFactory;
import org.springframework.util.ClassUtils;

import java.util.concurrent.Executor;

/**
 * Carries the caller's thread-local context (the current trace and span, logging MDC: whatever
 * Micrometer's context propagation knows) to where an asynchronous result completes, so the
 * caller's callbacks run in it. Without {@code io.micrometer:context-propagation} on the classpath
 * results complete as they are.
 */
final class CallerContext {

    private static final boolean PROPAGATION_PRESENT = ClassUtils.isPresent(
            "io.micrometer.context.ContextSnapshotFactory", CallerContext.class.getClassLoader());

    private CallerContext() {
    }

    /**
     * Call on the caller's thread.
     *
     * @param executor where the result completes
     * @return an executor that runs each task in the context the caller has now
     */
    static Executor capture(Executor executor) {
        return PROPAGATION_PRESENT ? Propagation.capture(executor) : executor;
    }

    /** Touches context propagation's classes only when they are present. */
    private static final class Propagation {

        private static final ContextSnapshotFactory SNAPSHOTS = ContextSnapshotFactory.builder().build();

        static Executor capture(Executor executor) {
            return SNAPSHOTS.captureAll().wrapExecutor(executor);
        }
    }
}

package io.distlock.sample.race;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

import java.util.concurrent.CompletableFuture;

/**
 * Ends an instance started by {@link TwoInstanceRace} when the JVM that started it ends, even by
 * SIGKILL, so that no instance (nor the embedded Redis it started) is left running. The exit runs
 * the JVM's shutdown hooks: Spring Boot's closes the application, the embedded Redis's stops it.
 */
@Component
@ConditionalOnProperty(ExitWithParent.PROPERTY)
class ExitWithParent {

    /** The process id of the JVM that started this one. */
    static final String PROPERTY = "sample.parent-pid";

    ExitWithParent(Environment environment) {
        long parent = environment.getRequiredProperty(PROPERTY, Long.class);
        CompletableFuture<?> parentGone = ProcessHandle.of(parent).<CompletableFuture<?>>map(ProcessHandle::onExit)
                .orElseGet(() -> CompletableFuture.completedFuture(null));
        // Async: never on the thread that is starting the application, which the shutdown hook would wait for.
        parentGone.thenRunAsync(() -> System.exit(1));
    }
}

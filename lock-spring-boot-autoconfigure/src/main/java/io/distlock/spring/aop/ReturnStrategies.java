package io.distlock.spring.aop;

import io.distlock.spring.OnFailure;
import org.springframework.core.KotlinDetector;
import org.springframework.core.ReactiveAdapter;
import org.springframework.core.ReactiveAdapterRegistry;
import org.springframework.util.ClassUtils;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;
import java.util.stream.BaseStream;

/**
 * Chooses a method's {@link ReturnStrategy} from its return type, once, at startup: a result
 * type distlock cannot hold a lock across stops startup, naming the method, rather than let the
 * method (or the work its result stands for) run unlocked.
 */
final class ReturnStrategies {

    /** Reactive types that need Reactor (and, for Kotlin's, kotlinx-coroutines-reactor) to be held across. */
    private static final List<String> REACTIVE_TYPES = List.of("org.reactivestreams.Publisher", "java.util.concurrent.Flow$Publisher",
            "io.reactivex.rxjava3.core.Single", "io.reactivex.rxjava3.core.Maybe",
            "io.reactivex.rxjava3.core.Completable", "io.reactivex.rxjava3.core.Observable",
            "io.reactivex.rxjava3.core.Flowable", "kotlinx.coroutines.flow.Flow", "kotlinx.coroutines.Deferred");

    /** Mono's class name: what Spring's AOP turns a Kotlin suspend function's result into. */
    private static final String MONO = "reactor.core.publisher.Mono";

    private ReturnStrategies() {
    }

    /**
     * @param method    the annotated method
     * @param onFailure what it does when the lock is not acquired in time
     * @param where     the method, for messages
     * @return the strategy for its return type
     * @throws InvalidLockAnnotationException for a return type distlock cannot hold a lock across: the
     *                               method would otherwise run, or its result be consumed, unlocked
     */
    static ReturnStrategy forMethod(Method method, OnFailure onFailure, String where) {
        Class<?> returnType = method.getReturnType();
        if (CompletionStage.class.isAssignableFrom(returnType)) {
            if (!returnType.isAssignableFrom(CompletableFuture.class)) {
                throw new InvalidLockAnnotationException(where, "return type " + returnType.getName() + " is a CompletionStage "
                        + "distlock cannot wrap; declare CompletionStage or CompletableFuture");
            }
            return new CompletionStageReturn();
        }
        boolean suspending = KotlinDetector.isSuspendingFunction(method);
        ReactiveAdapter adapter = reactorPresent() ? ReactiveAdapterRegistry.getSharedInstance().getAdapter(
                suspending ? ClassUtils.resolveClassName(MONO, loader()) : returnType) : null;
        if (adapter != null) {
            if (onFailure == OnFailure.SKIP && !adapter.supportsEmpty()) {
                throw new InvalidLockAnnotationException(where, "onFailure = SKIP cannot skip a method returning "
                        + returnType.getSimpleName() + ", which cannot complete empty; use THROW");
            }
            return new ReactiveReturn(adapter);
        }
        if (suspending || REACTIVE_TYPES.stream().anyMatch(type -> isA(returnType, type))) {
            throw new InvalidLockAnnotationException(where, (suspending ? "a suspend function" : "return type "
                    + returnType.getName()) + " can hold its lock only with Reactor on the classpath (add "
                    + "io.projectreactor:reactor-core, and org.jetbrains.kotlinx:kotlinx-coroutines-reactor for "
                    + "Kotlin); without it the method would run unlocked");
        }
        if (Future.class.isAssignableFrom(returnType) || BaseStream.class.isAssignableFrom(returnType)) {
            throw new InvalidLockAnnotationException(where, "return type " + returnType.getName() + " is consumed after "
                    + "the method returns, when its lock is already released; return CompletableFuture, a reactive "
                    + "type, or a collected result instead");
        }
        return new PlainReturn(returnType == Optional.class);
    }


    /** @return whether Reactor, which every reactive strategy of distlock runs on, is on the classpath */
    private static boolean reactorPresent() {
        return ClassUtils.isPresent(MONO, loader());
    }

    private static ClassLoader loader() {
        return ReturnStrategies.class.getClassLoader();
    }

    private static boolean isA(Class<?> type, String supertypeName) {
        return ClassUtils.isPresent(supertypeName, loader())
                && ClassUtils.resolveClassName(supertypeName, loader()).isAssignableFrom(type);
    }
}

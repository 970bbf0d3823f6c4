package io.distlock.spring;

import org.aopalliance.intercept.MethodInvocation;
import org.springframework.aop.ProxyMethodInvocation;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;


/**
 * Methods returning Reactor's {@code Mono} or {@code Flux}: nothing happens at call time; each
 * subscription acquires the locks without blocking (under a holder id of its own), then runs the
 * method and subscribes to its result, and releases the locks when that result completes, fails
 * or is cancelled. Not acquiring in time signals {@link io.distlock.core.LockAcquisitionException},
 * or completes empty with {@link OnFailure#SKIP}. Only loaded when the method returns a Reactor
 * type, so applications without Reactor never touch it.
 */
final class ReactorReturn implements ReturnStrategy {

    private final boolean mono;

    /** @param returnType {@code Mono} or {@code Flux} (or a subtype) */
    ReactorReturn(Class<?> returnType) {
        this.mono = Mono.class.isAssignableFrom(returnType);
    }

    @Override
    public Object invoke(MethodInvocation invocation, LockedCall call) {
        Flux<Object> locked = Flux.defer(() -> {
            LockedCall subscription = call.forNewOperation();
            return Flux.usingWhen(
                    Mono.fromFuture(subscription::acquireAsync).flatMap(acquired -> acquired ? Mono.just(subscription)
                            : subscription.method().onFailure() == OnFailure.SKIP ? Mono.empty()
                            : Mono.error(subscription.notAcquired())),
                    held -> Flux.from(run(invocation, held)),
                    held -> Mono.fromFuture(held::releaseAsync),
                    (held, error) -> Mono.fromFuture(held::releaseAsync),
                    held -> Mono.fromFuture(held::releaseAsync));
        });
        return mono ? locked.singleOrEmpty() : locked;
    }

    /** Runs the method for one subscription (a clone of the invocation when it may run again). */
    private static Publisher<?> run(MethodInvocation invocation, LockedCall held) {
        MethodInvocation run = invocation instanceof ProxyMethodInvocation proxied ? proxied.invocableClone()
                : invocation;
        LockContext context = held.context();
        context.enter();
        try {
            Object result = run.proceed();
            return result == null ? Mono.empty() : (Publisher<?>) result;
        } catch (Throwable t) {
            return Mono.error(t);
        } finally {
            context.exit();
        }
    }

    @Override
    public boolean outlivesCall() {
        return true;
    }
}

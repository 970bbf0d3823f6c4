package io.distlock.spring.aop;

import io.distlock.core.LockLostException;
import io.distlock.spring.LockContext;
import io.distlock.spring.OnFailure;
import org.aopalliance.intercept.MethodInvocation;
import org.springframework.aop.ProxyMethodInvocation;
import org.springframework.core.ReactiveAdapter;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;


/**
 * Methods returning a reactive type Spring's {@link ReactiveAdapterRegistry} knows (Reactor's
 * {@code Mono} and {@code Flux}, RxJava 3, Kotlin's {@code Flow}, JDK {@code Flow.Publisher}),
 * and Kotlin {@code suspend} functions, which Spring's AOP hands the advice as a {@code Mono}
 * that has not started yet: nothing happens at call time; each subscription acquires the locks
 * without blocking (under a holder id of its own), then runs the method on Reactor's
 * bounded-elastic scheduler and subscribes to its result, and releases the locks when that result
 * completes, fails or is cancelled. Not acquiring in time signals
 * {@link io.distlock.core.LockAcquisitionException}, or completes empty with
 * {@link OnFailure#SKIP}. With {@code onLost = CANCEL}, a lost lease cancels the method's
 * subscription and signals the loss downstream. Only loaded when the method returns such a type,
 * so applications without Reactor never touch it.
 */
final class ReactiveReturn implements ReturnStrategy {

    private final ReactiveAdapter adapter;

    /** @param adapter converts the method's result type to and from a Reactive Streams publisher */
    ReactiveReturn(ReactiveAdapter adapter) {
        this.adapter = adapter;
    }

    @Override
    public Object invoke(MethodInvocation invocation, LockedCall call) {
        Flux<Object> locked = Flux.defer(() -> {
            LockedCall subscription = call.forNewOperation();
            CompletableFuture<Boolean> acquiring = subscription.acquireAsync();
            return Mono.fromFuture(acquiring, true)
                    .publishOn(Schedulers.boundedElastic())
                    .flatMapMany(acquired -> acquired ? runHolding(invocation, subscription)
                            : subscription.method().onFailure() == OnFailure.SKIP ? Flux.empty()
                            : Flux.error(subscription.notAcquired()))
                    // Whatever ends the subscription, wherever a signal was dropped: a running
                    // acquisition is cancelled, acquired locks are released (once).
                    .doFinally(signal -> subscription.abandon(acquiring));
        });
        return adapter.fromPublisher(adapter.isMultiValue() ? locked : locked.singleOrEmpty());
    }

    /**
     * Runs the method and passes its signals on; on completion or error the locks are released
     * before the signal goes downstream, so the next subscriber finds them free. A release
     * failure after success (a lost lease) becomes the error.
     */
    private Flux<Object> runHolding(MethodInvocation invocation, LockedCall held) {
        Flux<Object> result = Flux.from(run(invocation, held));
        if (held.cancelsOnLoss()) {
            result = cancelledOnLoss(result, held);
        }
        return result
                .onErrorResume(error -> release(held)
                        .onErrorResume(releaseFailure -> {
                            error.addSuppressed(releaseFailure);
                            return Mono.empty();
                        })
                        .then(Mono.error(error)))
                .concatWith(release(held).then(Mono.empty()));
    }

    /**
     * {@code onLost = CANCEL}: the loss cancels the method's subscription at once (takeUntilOther
     * cancels it only when the other publisher emits, not when it fails), then goes downstream as
     * the error, after the release like any error. A method that completed on its own is not said
     * to be stopped.
     */
    private static Flux<Object> cancelledOnLoss(Flux<Object> result, LockedCall held) {
        AtomicReference<LockLostException> lost = new AtomicReference<>();
        AtomicBoolean completed = new AtomicBoolean();
        return result.doOnComplete(() -> completed.set(true))
                .takeUntilOther(lossOf(held).doOnNext(lost::set))
                .concatWith(Mono.defer(() -> {
                    LockLostException loss = lost.get();
                    if (loss == null || completed.get()) {
                        return Mono.empty();
                    }
                    held.countCancelled();
                    return Mono.error(held.stoppedBy(loss));
                }));
    }

    /** @return emits the loss once a lease of the held locks is lost ({@code onLost = CANCEL}) */
    private static Mono<LockLostException> lossOf(LockedCall held) {
        return Mono.defer(() -> {
            try {
                return Mono.fromCompletionStage(held.whenLost());
            } catch (IllegalMonitorStateException notHeld) {
                return Mono.never();  // lost and forgotten already: the release reports it
            }
        });
    }

    private static Mono<Void> release(LockedCall held) {
        return Mono.fromFuture(held::releaseAsync, true);
    }

    /** Runs the method for one subscription (a clone of the invocation when it may run again). */
    private Publisher<?> run(MethodInvocation invocation, LockedCall held) {
        MethodInvocation run = invocation instanceof ProxyMethodInvocation proxied ? proxied.invocableClone()
                : invocation;
        LockContext context = held.startMethod();
        CurrentLockContexts.enter(context);
        try {
            Object result = run.proceed();
            return result == null ? Mono.empty() : result instanceof Publisher<?> publisher ? publisher
                    : adapter.toPublisher(result);
        } catch (Throwable t) {
            return Mono.error(t);
        } finally {
            CurrentLockContexts.exit(context);
        }
    }

    @Override
    public boolean outlivesCall() {
        return true;
    }
}

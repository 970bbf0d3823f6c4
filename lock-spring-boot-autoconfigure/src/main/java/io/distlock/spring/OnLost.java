package io.distlock.spring;

/**
 * What happens to a running {@link DistributedLock} method when its lock's lease is lost: Redis no
 * longer has it (it expired, or was deleted or force-released), or it could end before anything
 * confirms it, because the watchdog's renewals have been failing or an explicit lease runs out
 * (see {@link io.distlock.core.RedisLock#whenLost(String)}: the signal comes a fifth of a lease
 * before the lease can end on the server, so the method can stop before another holder gets in).
 */
public enum OnLost {

    /**
     * The method runs on as if it held the lock; the loss is reported (a listener event, the
     * {@code distlock.lost} meter) and the call ends with {@link io.distlock.core.LockLostException}
     * when its locks are released. {@link LockContext#whenLost()} tells the method itself.
     */
    REPORT,

    /**
     * The method is stopped, and the call ends with {@link io.distlock.core.LockLostException}
     * whatever the method returns:
     * <ul>
     * <li>a method with a plain result: the thread running it is interrupted (only while the
     *     method runs; the interrupt is cleared when the call ends, so none reaches the caller or a
     *     pooled thread). Code that ignores interrupts (a busy loop, a {@code java.net.Socket} read
     *     on a platform thread) runs on until it returns;</li>
     * <li>{@code CompletionStage}/{@code CompletableFuture}: the returned stage fails at once; the
     *     locks are released when the method's own future completes, as always, so work that goes
     *     on stays covered while the lease lasts;</li>
     * <li>{@code Mono}, {@code Flux}, RxJava, {@code Flow} and Kotlin {@code suspend} functions:
     *     the method's subscription (or coroutine) is cancelled and the error goes downstream.</li>
     * </ul>
     * Each stopped call counts in {@code distlock.cancelled}, and {@code distlock.held} ends with
     * the error.
     */
    CANCEL
}

package io.distlock.core.internal.engine;

import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * How one client's lock calls reach Redis and come back to their callers: the command connection,
 * the limit on each answer, and the threads that complete the futures callers get.
 */
final class RedisCalls {

    /** What a blocking call waits beyond the command timeout, for Lettuce to report that timeout itself. */
    private static final long MARGIN_MILLIS = 1000;

    private final Supplier<RedisClusterAsyncCommands<String, String>> commands;
    private final long commandLimitMillis;
    private final ReplyDeadlines replyDeadlines;
    private final Executor callers;
    private final ClientLifecycle lifecycle;

    /**
     * @param commands             async commands of the shared connection (routed by key slot on a cluster);
     *                             throws a {@code LockException} while the client is not connected
     * @param commandTimeoutMillis how long blocking calls wait for one Redis answer
     * @param replyDeadlines       fails calls whose answer does not come in time
     * @param callers              completes the futures callers get (see {@link #forCaller})
     * @param lifecycle            whether the client is open
     */
    RedisCalls(Supplier<RedisClusterAsyncCommands<String, String>> commands, long commandTimeoutMillis,
               ReplyDeadlines replyDeadlines, Executor callers, ClientLifecycle lifecycle) {
        this.commands = commands;
        this.commandLimitMillis = commandTimeoutMillis + MARGIN_MILLIS;
        this.replyDeadlines = replyDeadlines;
        this.callers = callers;
        this.lifecycle = lifecycle;
    }

    /** @return the longest wait for one answer: the command timeout and a margin */
    long commandLimitMillis() {
        return commandLimitMillis;
    }

    /**
     * One command, waited for on the calling thread within the {@linkplain #commandLimitMillis() command limit}.
     *
     * @param what    what is being done, for messages (e.g. "check lock of 'x'")
     * @param command sends the command
     * @param <T>     result type
     * @return the answer
     * @throws io.distlock.core.LockException if Redis failed or did not answer in time
     * @throws IllegalStateException          if the client was closed
     */
    <T> T sync(String what, Function<RedisClusterAsyncCommands<String, String>, ? extends CompletionStage<T>> command) {
        lifecycle.ensureOpen();
        CompletableFuture<T> answer;
        try {
            answer = command.apply(commands.get()).toCompletableFuture();
        } catch (RuntimeException e) {
            throw RedisFailures.translate(what, e);
        }
        return Blocking.awaitUninterruptibly(answer, Wait.millis(commandLimitMillis), what);
    }

    /**
     * One {@code PING} on the command connection.
     *
     * @return the round-trip time
     */
    Duration ping() {
        long start = System.nanoTime();
        sync("ping Redis", RedisClusterAsyncCommands::ping);
        return Duration.ofNanos(System.nanoTime() - start);
    }

    /**
     * A Redis call of a release (or of a lease change), failed if it has no answer within the
     * command limit ({@link ReplyDeadlines}). This is the one place that decides the answer of a
     * release did not come: the release then stays in the holder's books
     * as unconfirmed ({@link Hold#releaseUnconfirmed}), and the next {@code unlock()} sends it
     * again, answered as its first run was. A caller that stopped waiting by a clock of its own
     * would be told the same, while the release was still in flight and taken out of the books:
     * its retry would be refused as not held, and the release would go on and end the hold. A JVM
     * frozen past the limit (a stop-the-world pause, a suspended VM) wakes with every deadline
     * passed, the waiting caller's first, before its event loop reads the answer that came
     * meanwhile; so does a Lettuce client whose own timeout is longer than the command limit.
     *
     * @param call the call
     * @param <T>  result type
     * @return {@code call}, or failed with a timeout
     */
    <T> CompletableFuture<T> inTime(CompletableFuture<T> call) {
        return replyDeadlines.within(call, commandLimitMillis);
    }

    /**
     * @param result a future the engine completes, maybe on Lettuce's event loop
     * @param <T>    result type
     * @return a future completed like {@code result}: on the calling thread if {@code result} is
     *         done already, else on the client's caller threads. A continuation of the caller's
     *         must never run on the event loop, where one that waits for Redis (an
     *         {@code unlock()} in a {@code thenRun}) would stall every command of the client (run
     *         here once the client is closed). Completing a future nobody can have attached to yet
     *         runs no continuation, and those the caller attaches then run on its own thread; a
     *         hop to another thread would only cost a context switch (a MultiLock without a lease
     *         settles each component so, one per component and acquisition)
     */
    <T> CompletableFuture<T> forCaller(CompletableFuture<T> result) {
        CompletableFuture<T> visible = new CompletableFuture<>();
        boolean known = result.isDone();
        result.whenComplete((value, error) -> {
            Runnable complete = () -> {
                if (error != null) {
                    visible.completeExceptionally(RedisFailures.unwrap(error));
                } else {
                    visible.complete(value);
                }
            };
            if (known) {
                complete.run();  // on the calling thread: whenComplete of a done future runs at once
                return;
            }
            try {
                callers.execute(complete);
            } catch (RejectedExecutionException closed) {
                complete.run();
            }
        });
        return visible;
    }

    /** Fails the calls still waiting for their answer (see {@link ReplyDeadlines#close()}). */
    void close() {
        replyDeadlines.close();
    }
}

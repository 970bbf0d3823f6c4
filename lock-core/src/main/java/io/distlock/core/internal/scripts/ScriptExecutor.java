package io.distlock.core.internal.scripts;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Runs {@link LuaScript}s with {@code EVALSHA}, one round trip when the server has the script
 * cached. When it does not ({@code NOSCRIPT}: first use, after a restart, a failover or
 * {@code SCRIPT FLUSH}), the script is sent once with {@code EVAL}, which also caches it, and the
 * call goes on from there.
 *
 * <p>That second send goes behind whatever was sent on the connection meanwhile, which may run
 * first if its own script is cached. A call that what follows it relies on having run first (an
 * undo before the holder's next attempt, a renewal before a shorter lease) goes with
 * {@link #runInOrder}: {@code EVAL} at once, which never answers {@code NOSCRIPT}.
 */
public final class ScriptExecutor {

    /** How deep {@link #isNoScript} looks: Lettuce's failures come wrapped once or twice. */
    private static final int CAUSES_SEARCHED = 8;

    private final ScriptTarget target;

    /**
     * @param target where scripts run: the shared command connection
     */
    public ScriptExecutor(ScriptTarget target) {
        this.target = target;
    }

    /** @return the command the scripts publish wake-ups with: {@code spublish} or {@code publish} */
    public String publishCommand() {
        return target.publishCommand();
    }

    /**
     * Runs a script.
     *
     * @param script the script
     * @param output how Lettuce decodes the reply
     * @param keys   every key the script touches (all in one hash slot)
     * @param args   the script's ARGV
     * @param <T>    reply type for {@code output}
     * @return the reply; failures (also a closed connection) complete it exceptionally
     */
    public <T> CompletableFuture<T> run(LuaScript script, ScriptOutputType output, String[] keys, String... args) {
        RedisScriptingAsyncCommands<String, String> commands;
        CompletionStage<T> bySha;
        try {
            commands = target.commands();
            bySha = commands.evalsha(script.sha1(), output, keys, args);
        } catch (RuntimeException e) {
            // e.g. the connection is closed: report it like any other failure, never throw
            return CompletableFuture.failedFuture(e);
        }
        return bySha.toCompletableFuture().exceptionallyCompose(error -> {
            if (isNoScript(error)) {
                CompletionStage<T> bySource = commands.eval(script.source(), output, keys, args);
                return bySource;
            }
            return CompletableFuture.failedFuture(error);
        });
    }

    /**
     * Runs a script with {@code EVAL}: it runs before anything sent after it on the same connection,
     * even when the server has lost its script cache. Costs the script's text on the wire.
     *
     * @param script the script
     * @param output how Lettuce decodes the reply
     * @param keys   every key the script touches (all in one hash slot)
     * @param args   the script's ARGV
     * @param <T>    reply type for {@code output}
     * @return the reply; failures (also a closed connection) complete it exceptionally
     */
    public <T> CompletableFuture<T> runInOrder(LuaScript script, ScriptOutputType output, String[] keys,
                                               String... args) {
        try {
            CompletionStage<T> bySource = target.commands().eval(script.source(), output, keys, args);
            return bySource.toCompletableFuture();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * {@link #runInOrder} when {@code inOrder}, else {@link #run(LuaScript, ScriptOutputType, String[], String...)}.
     *
     * @param inOrder whether it must run before anything sent after it on the same connection
     * @param script  the script
     * @param output  how Lettuce decodes the reply
     * @param keys    every key the script touches (all in one hash slot)
     * @param args    the script's ARGV
     * @param <T>     reply type for {@code output}
     * @return the reply
     */
    public <T> CompletableFuture<T> run(boolean inOrder, LuaScript script, ScriptOutputType output, String[] keys,
                                        String... args) {
        return inOrder ? runInOrder(script, output, keys, args) : run(script, output, keys, args);
    }

    /**
     * @return whether the error, or an error it was caused by, is Redis's {@code NOSCRIPT}; the
     *         search stops after {@link #CAUSES_SEARCHED} causes, so a chain made circular by
     *         {@code initCause} cannot hold an I/O thread
     */
    private static boolean isNoScript(Throwable error) {
        Throwable e = error;
        for (int i = 0; e != null && i < CAUSES_SEARCHED; i++, e = e.getCause()) {
            if (e instanceof RedisNoScriptException || (e.getMessage() != null && e.getMessage().startsWith("NOSCRIPT"))) {
                return true;
            }
        }
        return false;
    }
}

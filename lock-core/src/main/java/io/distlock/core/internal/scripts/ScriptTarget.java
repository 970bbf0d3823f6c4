package io.distlock.core.internal.scripts;

import io.lettuce.core.api.async.RedisScriptingAsyncCommands;

/**
 * Where scripts run: the client's command connection as it is now, and how its scripts publish
 * wake-ups (plain pub/sub, or sharded pub/sub on a Redis 7 cluster).
 */
public interface ScriptTarget {

    /**
     * @return the asynchronous scripting commands of the shared command connection
     * @throws io.distlock.core.LockException if the client has no connection now
     */
    RedisScriptingAsyncCommands<String, String> commands();

    /** @return the command scripts publish wake-ups with: {@code spublish} or {@code publish} */
    String publishCommand();
}

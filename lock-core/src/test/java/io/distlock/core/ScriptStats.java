package io.distlock.core;

import io.distlock.test.RedisServer;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Counts the Lua scripts a Redis server ran, and the wake-ups they published, from
 * {@code INFO commandstats}: how tests see whether waiters poll or are woken for nothing, and when
 * a waiter has made its attempts and gone to sleep. Shared with
 * other modules' tests through lock-core's test jar.
 */
public final class ScriptStats {

    private static final Pattern SCRIPT_CALLS =
            Pattern.compile("cmdstat_(evalsha|eval):calls=(\\d+)(?:.*?failed_calls=(\\d+))?");
    private static final Pattern PUBLISH_CALLS = Pattern.compile("cmdstat_s?publish:calls=(\\d+)");

    private ScriptStats() {
    }

    /** Starts counting from zero. */
    public static void reset(RedisServer server) {
        server.command("CONFIG", "RESETSTAT");
    }

    /** @return scripts run since the last reset (an EVALSHA answered NOSCRIPT, then sent as EVAL, counts once) */
    public static long scriptCalls(RedisServer server) {
        return count(server, false);
    }

    /** @return scripts asked for since the last reset, those that failed with an error reply included */
    public static long scriptCallsWithErrors(RedisServer server) {
        return count(server, true);
    }

    /** @return messages published since the last reset (by scripts waking waiters, or by anyone) */
    public static long publishes(RedisServer server) {
        Matcher m = PUBLISH_CALLS.matcher(server.commandString("INFO", "commandstats"));
        long calls = 0;
        while (m.find()) {
            calls += Long.parseLong(m.group(1));
        }
        return calls;
    }

    private static long count(RedisServer server, boolean withErrors) {
        Matcher m = SCRIPT_CALLS.matcher(server.commandString("INFO", "commandstats"));
        long calls = 0;
        while (m.find()) {
            long failed = m.group(3) == null ? 0 : Long.parseLong(m.group(3));
            calls += Long.parseLong(m.group(2)) - (withErrors ? 0 : failed);
        }
        return calls;
    }
}

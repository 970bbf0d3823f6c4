package io.distlock.benchmarks;

import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

import java.time.Duration;
import java.util.Optional;

/**
 * The benchmark's own Lettuce connection, one {@link StatefulRedisConnection} shared by all
 * callers: facts and counters of the server, removal of the run's keys, and raw commands for the
 * {@link ScriptCeiling} and the {@link LeaseCensus}.
 */
final class RedisAdmin implements AutoCloseable {

    private static final int SCAN_COUNT = 1_000;

    private final RedisClient client;
    private final StatefulRedisConnection<String, String> connection;

    private RedisAdmin(RedisClient client, StatefulRedisConnection<String, String> connection) {
        this.client = client;
        this.connection = connection;
    }

    /**
     * @param redisUri the Redis to connect to
     * @return the connected admin
     */
    static RedisAdmin connect(String redisUri) {
        RedisClient client = RedisClient.create(redisUri);
        try {
            return new RedisAdmin(client, client.connect());
        } catch (RuntimeException e) {
            client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            throw e;
        }
    }

    /** @return synchronous commands on the shared connection; thread-safe */
    RedisCommands<String, String> commands() {
        return connection.sync();
    }

    /** @return the {@code redis_version} field of {@code INFO server} */
    String serverVersion() {
        return infoField("server", "redis_version").orElse("unknown");
    }

    /** @return the {@code used_memory} field of {@code INFO memory}: bytes Redis has allocated */
    long usedMemory() {
        return Long.parseLong(infoField("memory", "used_memory").orElseThrow(() ->
                new IllegalStateException("INFO memory has no used_memory field")));
    }

    /**
     * @return {@code EVAL} plus {@code EVALSHA} commands the server received since it started (or
     *         since {@code CONFIG RESETSTAT}): the {@code calls} and {@code rejected_calls} of their
     *         {@code INFO commandstats} lines, so a {@code NOSCRIPT} reply counts too
     */
    long scriptCalls() {
        String stats = commands().info("commandstats");
        return commandCalls(stats, "eval") + commandCalls(stats, "evalsha");
    }

    /** Deletes every key of the server: for a server this run started, between measurements. */
    void flushAll() {
        commands().flushall();
    }

    private Optional<String> infoField(String section, String field) {
        String prefix = field + ":";
        for (String line : commands().info(section).split("\r?\n")) {
            if (line.startsWith(prefix)) {
                return Optional.of(line.substring(prefix.length()).trim());
            }
        }
        return Optional.empty();
    }

    /** Sums the {@code calls} and {@code rejected_calls} (Redis 7+) of one command's line. */
    private static long commandCalls(String commandStats, String command) {
        String prefix = "cmdstat_" + command + ":";
        for (String line : commandStats.split("\r?\n")) {
            if (line.startsWith(prefix)) {
                long calls = 0;
                for (String pair : line.substring(prefix.length()).trim().split(",")) {
                    if (pair.startsWith("calls=") || pair.startsWith("rejected_calls=")) {
                        calls += Long.parseLong(pair.substring(pair.indexOf('=') + 1));
                    }
                }
                return calls;
            }
        }
        return 0;
    }

    /**
     * Deletes every key matching a pattern, without touching other keys of the server.
     *
     * @param pattern a glob as for {@code SCAN MATCH}
     * @return the number of keys deleted
     */
    long deleteKeys(String pattern) {
        ScanArgs match = ScanArgs.Builder.matches(pattern).limit(SCAN_COUNT);
        long deleted = 0;
        ScanCursor cursor = ScanCursor.INITIAL;
        do {
            KeyScanCursor<String> page = commands().scan(cursor, match);
            if (!page.getKeys().isEmpty()) {
                deleted += commands().del(page.getKeys().toArray(String[]::new));
            }
            cursor = page;
        } while (!cursor.isFinished());
        return deleted;
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
}

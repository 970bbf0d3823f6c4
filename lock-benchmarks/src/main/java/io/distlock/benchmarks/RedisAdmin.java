package io.distlock.benchmarks;

import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

import java.time.Duration;

/**
 * The benchmark's own Lettuce connection, one {@link StatefulRedisConnection} shared by all
 * callers: facts about the server, removal of the run's keys, and raw commands for the
 * {@link ScriptCeiling}.
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
        for (String line : commands().info("server").split("\r?\n")) {
            if (line.startsWith("redis_version:")) {
                return line.substring("redis_version:".length()).trim();
            }
        }
        return "unknown";
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

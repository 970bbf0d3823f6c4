package io.distlock.benchmarks;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.sync.RedisCommands;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Counts the lock keys of one backend in Redis and finds the shortest lease left among them, with
 * {@code lease_census.lua} (one {@code EVALSHA} per {@code SCAN} page, so the check costs the
 * client almost nothing while it measures the client's CPU). Single-server only.
 */
final class LeaseCensus {

    private static final String RESOURCE = "lease_census.lua";
    private static final int PAGE_SIZE = 1_000;

    private final RedisCommands<String, String> commands;
    private final String sha;

    private LeaseCensus(RedisCommands<String, String> commands, String sha) {
        this.commands = commands;
        this.sha = sha;
    }

    /**
     * Loads the script once ({@code SCRIPT LOAD}).
     *
     * @param commands a connection's commands
     * @return the census
     */
    static LeaseCensus load(RedisCommands<String, String> commands) {
        try (InputStream in = LeaseCensus.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the benchmark jar");
            }
            return new LeaseCensus(commands, commands.scriptLoad(new String(in.readAllBytes(), StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + RESOURCE, e);
        }
    }

    /**
     * What one census found.
     *
     * @param keys        keys matching the pattern
     * @param minPttl     shortest remaining lease among them in ms (-1: a key without expiry; 0 if no keys)
     * @param scriptCalls {@code EVALSHA} calls the census made (to subtract from the server's counts)
     */
    record Result(long keys, long minPttl, long scriptCalls) {
    }

    /**
     * @param pattern a {@code SCAN MATCH} glob covering exactly the keys to count
     * @return how many there are and the shortest lease left among them
     */
    Result take(String pattern) {
        String cursor = "0";
        long keys = 0;
        long minPttl = Long.MAX_VALUE;
        long calls = 0;
        do {
            List<Object> page = commands.evalsha(sha, ScriptOutputType.MULTI, new String[0], cursor, pattern,
                    Integer.toString(PAGE_SIZE));
            calls++;
            cursor = (String) page.get(0);
            long found = (Long) page.get(1);
            if (found > 0) {
                keys += found;
                minPttl = Math.min(minPttl, (Long) page.get(2));
            }
        } while (!"0".equals(cursor));
        return new Result(keys, keys == 0 ? 0 : minPttl, calls);
    }
}

package io.distlock.benchmarks;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * What Redis and the client stack can do at best for a lock operation: one EVALSHA round trip of a
 * script that does nothing ({@code return 1}) through Lettuce on one shared connection. A lock+unlock
 * pair needs at least two such round trips, so half the round-trip rate bounds the pair rate.
 */
final class ScriptCeiling {

    private static final String SCRIPT = "return 1";

    /** What the reports' ceiling figure is, in the pairs per second they show. */
    static final String DESCRIPTION = "EVALSHA round trips/s of the script \"" + SCRIPT + "\" through Lettuce on one "
            + "shared connection with the scenario's thread count, divided by 2 (lock + unlock = two round trips)";

    private final RedisCommands<String, String> commands;
    private final String sha;

    private ScriptCeiling(RedisCommands<String, String> commands, String sha) {
        this.commands = commands;
        this.sha = sha;
    }

    /**
     * Loads the script once ({@code SCRIPT LOAD}).
     *
     * @param commands the shared connection's commands
     * @return the ceiling workload
     */
    static ScriptCeiling load(RedisCommands<String, String> commands) {
        return new ScriptCeiling(commands, commands.scriptLoad(SCRIPT));
    }

    /** @return a loop body per thread: one EVALSHA round trip, its latency recorded */
    TimedLoad.StepFactory steps() {
        return worker -> latencies -> {
            long start = System.nanoTime();
            Long reply = commands.evalsha(sha, ScriptOutputType.INTEGER);
            latencies.add(System.nanoTime() - start);
            if (reply == null || reply != 1L) {
                throw new IllegalStateException("EVALSHA of '" + SCRIPT + "' answered " + reply);
            }
        };
    }
}

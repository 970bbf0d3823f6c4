package io.distlock.test;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One JVM shutdown hook that forcibly ends every process the fixture still owns (redis servers, child JVMs).
 */
final class ShutdownReaper {

    private static final Map<Object, Runnable> KILLERS = new ConcurrentHashMap<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(ShutdownReaper::killAll, "distlock-test-reaper"));
    }

    private ShutdownReaper() {
    }

    static void register(Object owner, Runnable killer) {
        KILLERS.put(owner, killer);
    }

    static void unregister(Object owner) {
        KILLERS.remove(owner);
    }

    private static void killAll() {
        for (Runnable killer : KILLERS.values()) {
            try {
                killer.run();
            } catch (RuntimeException | Error e) {
                // keep going: every other process must still be killed
            }
        }
    }
}

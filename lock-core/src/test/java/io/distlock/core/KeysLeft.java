package io.distlock.core;

import io.distlock.test.RedisServer;

import java.util.ArrayList;
import java.util.List;

/**
 * What the engine left in a Redis server: its keys, but the answers the engine remembers for a
 * while so that a command sent again answers as its first run did (the answer books
 * {@code <lock>:released} and {@code <lock>:released:before}, {@code <lock>:forced:<call id>}),
 * which end by themselves and are no lock state. How tests see
 * whether anything was left behind. Shared with other modules' tests through lock-core's test jar.
 */
public final class KeysLeft {

    private KeysLeft() {
    }

    /**
     * @param server a Redis server
     * @return its keys, but remembered answers
     */
    public static List<String> in(RedisServer server) {
        return matching(server, "*");
    }

    /**
     * @param server  a Redis server
     * @param pattern a {@code SCAN MATCH} pattern
     * @return its keys that match, but remembered answers
     */
    public static List<String> matching(RedisServer server, String pattern) {
        List<String> keys = new ArrayList<>();
        String cursor = "0";
        do {
            List<?> reply = (List<?>) server.command("SCAN", cursor, "MATCH", pattern, "COUNT", "1000");
            cursor = (String) reply.get(0);
            for (Object key : (List<?>) reply.get(1)) {
                if (!isRememberedAnswer((String) key)) {
                    keys.add((String) key);
                }
            }
        } while (!"0".equals(cursor));
        return keys;
    }

    /**
     * @param key a key
     * @return whether it keeps a remembered answer of a release or a force-unlock
     */
    public static boolean isRememberedAnswer(String key) {
        return key.matches(".*}(:sem)?:(released|released:before|forced:.*)");
    }
}

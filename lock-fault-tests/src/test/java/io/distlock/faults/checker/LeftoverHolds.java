package io.distlock.faults.checker;

import io.distlock.core.KeysLeft;
import io.distlock.test.RedisServer;

import java.util.ArrayList;
import java.util.List;

/**
 * What a run left in Redis once every client closed and every lease passed. A lock hash, a
 * readers set, or a semaphore's hash or leases still there is a hold nobody released and no lease
 * ended; fence counters stay by
 * design; fair-lock waiting-room keys (queue, timeouts, clients) are listed apart: once every
 * queue deadline passed, none should be left either.
 */
final class LeftoverHolds {

    private final List<String> holds = new ArrayList<>();
    private final List<String> waitingRoom = new ArrayList<>();

    /**
     * @param servers the servers to look at
     * @return what is left
     */
    static LeftoverHolds scan(List<RedisServer> servers) {
        LeftoverHolds leftovers = new LeftoverHolds();
        for (RedisServer server : servers) {
            String cursor = "0";
            do {
                List<?> reply = (List<?>) server.command("SCAN", cursor, "MATCH", "distlock:*", "COUNT", "1000");
                cursor = (String) reply.get(0);
                for (Object key : (List<?>) reply.get(1)) {
                    leftovers.classify(server, (String) key);
                }
            } while (!"0".equals(cursor));
        }
        return leftovers;
    }

    /** @return lock hashes, readers sets and semaphore keys still present, with their contents and TTL */
    List<String> holds() {
        return holds;
    }

    /** @return fair-lock waiting-room keys still present */
    List<String> waitingRoom() {
        return waitingRoom;
    }

    private void classify(RedisServer server, String key) {
        if (key.endsWith(":fence") || KeysLeft.isRememberedAnswer(key)) {
            return;  // a fence counter stays by design; a remembered answer ends by itself
        }
        String where = server.port() + " " + key;
        if (key.endsWith("}") || key.endsWith(":readers") || key.endsWith("}:sem") || key.endsWith("}:sem:leases")) {
            Object content = "hash".equals(server.commandString("TYPE", key))
                    ? server.command("HGETALL", key) : server.command("ZRANGE", key, "0", "-1", "WITHSCORES");
            holds.add(where + " = " + content + ", pttl " + server.command("PTTL", key));
        } else {
            waitingRoom.add(where);
        }
    }
}

package io.distlock.core;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Child JVM for crash tests: takes a watchdog lock, prints {@code LOCKED}, and holds it until
 * killed (or, as a safety net, for at most 60 s). While the lock is held elsewhere it waits for
 * it, which makes it a waiter to kill.
 *
 * <p>Arguments: Redis URI, lock name, watchdog timeout in milliseconds, optionally {@code fair}
 * for the fair lock of that name, {@code read} for its read-write lock's read half or
 * {@code reentrant} (the default), and optionally how many threads of the JVM take it (default 1),
 * each printing {@code LOCKED} when it has it: a JVM with several waiting threads to kill.
 * Shared with other modules' tests through lock-core's test jar.
 */
public final class LockHolderMain {

    private LockHolderMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        LockClient client = LockClient.builder()
                .redisUri(args[0])
                .watchdogTimeout(Duration.ofMillis(Long.parseLong(args[2])))
                .build();
        String kind = args.length > 3 ? args[3] : "reentrant";
        RedisLock lock = switch (kind) {
            case "fair" -> client.getFairLock(args[1]);
            case "read" -> client.getReadWriteLock(args[1]).readLock();
            default -> client.getLock(args[1]);
        };
        Runnable take = () -> {
            lock.lock();
            System.out.println("LOCKED " + client.clientId());
            System.out.flush();
        };
        int threads = args.length > 4 ? Integer.parseInt(args[4]) : 1;
        for (int i = 1; i < threads; i++) {
            new Thread(take, "taker-" + i).start();
        }
        take.run();
        TimeUnit.SECONDS.sleep(60);
        System.exit(1);
    }
}

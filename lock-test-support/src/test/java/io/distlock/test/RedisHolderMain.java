package io.distlock.test;

/**
 * Child-JVM helper: starts a {@link RedisServer}, prints {@code REDIS_PID <pid> PORT <port>} and then
 * either exits at once without closing it (argument {@code exit}) or waits up to 60 s to be killed.
 */
public final class RedisHolderMain {

    private RedisHolderMain() {
    }

    /**
     * Entry point.
     *
     * @param args optional {@code exit}
     * @throws Exception if interrupted
     */
    public static void main(String[] args) throws Exception {
        RedisServer server = RedisServers.start();
        System.out.println("REDIS_PID " + server.pid().orElse(-1) + " PORT " + server.port());
        System.out.flush();
        if (args.length > 0 && args[0].equals("exit")) {
            System.exit(0); // deliberately without close(): the shutdown hook must clean up
        }
        Thread.sleep(60_000);
        System.exit(4);
    }
}

package io.distlock.faults;

import io.distlock.core.LockClient;
import io.distlock.core.RedisLock;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Child JVM of {@link CrossProcessExclusionTest}: several threads, each running lock/unlock cycles
 * around a non-atomic read-modify-write ({@code GET}, then {@code SET} + 1) of a shared Redis
 * counter. Inside each critical section it also {@code INCR}s an "inside" key, which must return 1
 * (nobody else inside), and {@code DECR}s it on leaving: an overlap of holders is seen by Redis,
 * independently of the lock.
 *
 * <p>Arguments: Redis URI, lock name, threads, cycles per thread. Prints {@code READY}, waits for
 * {@code GO} on stdin (so all processes start together), then prints
 * {@code RESULT cycles=<n> overlaps=<n> errors=<n> millis=<n>} and exits.
 */
public final class ExclusionWorkerMain {

    private ExclusionWorkerMain() {
    }

    public static void main(String[] args) throws Exception {
        String uri = args[0];
        String name = args[1];
        int threads = Integer.parseInt(args[2]);
        int cycles = Integer.parseInt(args[3]);
        RedisClient redis = RedisClient.create(uri);
        try (LockClient client = LockClient.builder().redisUri(uri).build();
             StatefulRedisConnection<String, String> connection = redis.connect()) {
            RedisCommands<String, String> commands = connection.sync();
            AtomicLong done = new AtomicLong();
            AtomicLong overlaps = new AtomicLong();
            AtomicLong errors = new AtomicLong();
            System.out.println("READY");
            System.out.flush();
            String go = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
            if (!"GO".equals(go)) {
                throw new IllegalStateException("expected GO on stdin, got " + go);
            }
            long start = System.nanoTime();
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Thread worker = new Thread(() -> {
                    RedisLock lock = client.getLock(name);
                    for (int i = 0; i < cycles; i++) {
                        try {
                            lock.lock();
                            try {
                                if (commands.incr(name + ":inside") != 1) {
                                    overlaps.incrementAndGet();
                                }
                                String read = commands.get(name + ":counter");
                                commands.set(name + ":counter", Long.toString(read == null ? 1 : Long.parseLong(read) + 1));
                                commands.decr(name + ":inside");
                            } finally {
                                lock.unlock();
                            }
                            done.incrementAndGet();
                        } catch (RuntimeException e) {
                            errors.incrementAndGet();
                            e.printStackTrace();
                        }
                    }
                }, "worker-" + t);
                worker.start();
                workers.add(worker);
            }
            for (Thread worker : workers) {
                worker.join();
            }
            long millis = (System.nanoTime() - start) / 1_000_000;
            System.out.println("RESULT cycles=" + done.get() + " overlaps=" + overlaps.get() + " errors=" + errors.get()
                    + " millis=" + millis);
            System.out.flush();
        } finally {
            redis.shutdown();
        }
    }
}

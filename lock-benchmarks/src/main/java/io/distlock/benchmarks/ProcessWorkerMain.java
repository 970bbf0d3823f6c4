package io.distlock.benchmarks;

import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.Lock;

/**
 * A child JVM of the {@link Scenario#PROCESSES} scenario, started by {@link ProcessLoad}: connects
 * one backend, prints {@code READY}, waits for {@code GO <startNanos> <endNanos>} on standard input,
 * then runs its threads until {@code endNanos}, each looping lock() on a random one of the lock
 * names, a tiny critical section, unlock(). Every acquisition whose {@code lock()} returned inside
 * [{@code startNanos}, {@code endNanos}) is written to the record file ({@link AcquisitionRecord});
 * the time before {@code startNanos} is the warm-up. Prints {@code DONE <n> bytes} and exits 0, or
 * {@code FAILED <reason>} and exits 1.
 *
 * <p>Arguments: backend ({@code distlock} or {@code redisson}), Redis URI, key prefix, threads,
 * lock names, process index, record file.
 */
public final class ProcessWorkerMain {

    /** Line printed once connected. */
    static final String READY = "READY";
    /** Start of the line printed after the record file was written. */
    static final String DONE = "DONE";

    private ProcessWorkerMain() {
    }

    /**
     * @param args see the class comment
     */
    public static void main(String[] args) {
        try {
            run(args);
            System.exit(0);
        } catch (Throwable e) {
            System.out.println("FAILED " + e);
            e.printStackTrace(System.out);
            System.out.flush();
            System.exit(1);
        }
    }

    private static void run(String[] args) throws Exception {
        String backendName = args[0];
        String redisUri = args[1];
        String keyPrefix = args[2];
        int threads = Integer.parseInt(args[3]);
        int names = Integer.parseInt(args[4]);
        int process = Integer.parseInt(args[5]);
        Path recordFile = Path.of(args[6]);
        try (LockBackend backend = connect(backendName, redisUri, keyPrefix, threads)) {
            List<Lock> locks = new ArrayList<>(names);
            for (int i = 0; i < names; i++) {
                locks.add(backend.lock("hot-" + i));
            }
            System.out.println(READY);
            System.out.flush();
            String go = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
            String[] window = go == null ? new String[0] : go.split(" ");
            if (window.length != 3 || !"GO".equals(window[0])) {
                throw new IllegalStateException("expected 'GO <startNanos> <endNanos>' on stdin, got " + go);
            }
            long startNanos = Long.parseLong(window[1]);
            long endNanos = Long.parseLong(window[2]);
            List<ByteArrayOutputStream> recorded = new ArrayList<>(threads);
            long[] counters = new long[names];
            TimedLoad.run("process-" + process, threads, Duration.ofNanos(Math.max(1, endNanos - System.nanoTime())),
                    worker -> {
                        ByteArrayOutputStream bytes = new ByteArrayOutputStream(1 << 16);
                        recorded.add(bytes);
                        DataOutputStream out = new DataOutputStream(bytes);
                        return latencies -> {
                            int lock = names == 1 ? 0 : ThreadLocalRandom.current().nextInt(names);
                            long acquired;
                            long start = System.nanoTime();
                            locks.get(lock).lock();
                            try {
                                acquired = System.nanoTime();
                                counters[lock]++;  // the critical section: guarded by the lock
                            } finally {
                                locks.get(lock).unlock();
                            }
                            if (acquired - startNanos >= 0 && acquired - endNanos < 0) {
                                new AcquisitionRecord(process, lock, acquired, acquired - start).writeTo(out);
                            }
                        };
                    });
            long bytes = 0;
            try (OutputStream file = new BufferedOutputStream(Files.newOutputStream(recordFile))) {
                for (ByteArrayOutputStream worker : recorded) {
                    worker.writeTo(file);
                    bytes += worker.size();
                }
            }
            System.out.println(DONE + " " + bytes + " bytes");
            System.out.flush();
        }
    }

    private static LockBackend connect(String backend, String redisUri, String keyPrefix, int threads) {
        return switch (backend) {
            case "distlock" -> DistlockBackend.connect(redisUri, keyPrefix);
            case "redisson" -> RedissonBackend.connect(redisUri, keyPrefix, threads);
            default -> throw new IllegalArgumentException("unknown backend '" + backend + "'");
        };
    }
}

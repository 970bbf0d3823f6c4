package io.distlock.faults.checker;

import io.distlock.core.ReplyDroppingProxy;
import io.distlock.test.JavaProcess;
import io.distlock.test.RedisServer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.IntStream;

/**
 * Applies random faults, one after another with random gaps, until the load ends: Redis paused
 * ({@code CLIENT PAUSE}, {@code DEBUG SLEEP}), connections killed, replies delayed or dropped by the
 * proxy, and a worker JVM frozen past its watchdog lease. A pause, sleep or kill hits the Redis
 * under test, or, one time in three, two of the three RedLock masters at once (the Redis under
 * test is one of them), so a RedLock loses its majority. Its random choices come from the run
 * seed, so a seed replays the same sequence of faults (their moments shift with the machine's
 * speed). Every fault is undone before the next one starts and before {@link #run} returns.
 */
final class FaultInjector {

    private static final FaultKind[] KINDS = FaultKind.values();
    /** Instant faults are counted as in force this long: the reconnection after a kill. */
    private static final long KILL_AFTERMATH_MS = 1_000;
    private static final Executor OWN_THREAD = runnable -> {
        Thread thread = new Thread(runnable, "checker-fault");
        thread.setDaemon(true);
        thread.start();
    };

    private final Random random;
    private final List<RedisServer> servers;
    private final ReplyDroppingProxy proxy;
    private final List<JavaProcess> workers;
    private final List<FaultRecord> applied = new ArrayList<>();

    /**
     * @param seed    the run seed
     * @param servers the Redis under test first, then the two other RedLock masters (all started
     *                with {@code --enable-debug-command yes})
     * @param proxy   the proxy some clients reach the Redis under test through
     * @param workers the worker JVMs
     */
    FaultInjector(long seed, List<RedisServer> servers, ReplyDroppingProxy proxy, List<JavaProcess> workers) {
        this.random = new Random(Schedule.derive(seed, -1));
        this.servers = List.copyOf(servers);
        this.proxy = proxy;
        this.workers = workers;
    }

    /**
     * Injects faults until {@code deadline}; returns once the last fault is undone.
     *
     * @param deadline {@link System#nanoTime()} at which to stop
     * @throws InterruptedException if interrupted (the fault in force is undone first)
     */
    void run(long deadline) throws InterruptedException {
        while (true) {
            long gapMs = 500L + random.nextInt(2_500);
            if (System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(gapMs) >= deadline) {
                return;
            }
            Thread.sleep(gapMs);
            apply(KINDS[random.nextInt(KINDS.length)]);
        }
    }

    /** @return the faults applied so far, in order */
    synchronized List<FaultRecord> applied() {
        return List.copyOf(applied);
    }

    private void apply(FaultKind kind) throws InterruptedException {
        long start = System.nanoTime();
        List<Integer> targets = List.of();
        int worker = -1;
        String detail;
        long end;
        switch (kind) {
            case CLIENT_PAUSE_ALL, CLIENT_PAUSE_WRITE -> {
                long millis = 200L + random.nextInt(1_300);
                targets = targets();
                onEach(targets, server -> server.command("CLIENT", "PAUSE", Long.toString(millis),
                        kind == FaultKind.CLIENT_PAUSE_ALL ? "ALL" : "WRITE"));
                detail = millis + " ms on servers " + targets;
                end = start + TimeUnit.MILLISECONDS.toNanos(millis);
                Thread.sleep(millis);
            }
            case DEBUG_SLEEP -> {
                long millis = 200L + random.nextInt(1_300);
                targets = targets();
                onEach(targets, server -> server.command(Duration.ofMillis(millis + 10_000), "DEBUG", "SLEEP",
                        String.format(Locale.ROOT, "%.3f", millis / 1000.0)));
                detail = millis + " ms on servers " + targets;
                end = System.nanoTime();
            }
            case KILL_NORMAL, KILL_PUBSUB -> {
                targets = targets();
                List<Object> killed = new ArrayList<>();
                onEach(targets, server -> {
                    Object count = server.command("CLIENT", "KILL", "TYPE", kind == FaultKind.KILL_NORMAL ? "normal" : "pubsub");
                    synchronized (killed) {
                        killed.add(count);
                    }
                });
                detail = killed + " connections on servers " + targets;
                end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(KILL_AFTERMATH_MS);
            }
            case PROXY_DELAY -> {
                long delayMs = 50L + random.nextInt(750);
                long forMs = 500L + random.nextInt(2_000);
                proxy.delayReplies(delayMs);
                try {
                    Thread.sleep(forMs);
                } finally {
                    proxy.delayReplies(0);
                }
                detail = "replies " + delayMs + " ms late for " + forMs + " ms";
                end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delayMs);
            }
            case PROXY_DROP -> {
                proxy.dropNextReplyAndDisconnect();
                detail = "next reply";
                // the client hears nothing until its command timeout, then may send once more
                end = System.nanoTime() + 2 * CheckerSettings.COMMAND_TIMEOUT.toNanos();
            }
            case WORKER_PAUSE -> {
                worker = random.nextInt(workers.size());
                long millis = CheckerSettings.WATCHDOG.toMillis() + 500 + random.nextInt(2_000);
                JavaProcess frozen = workers.get(worker);
                frozen.pause();
                try {
                    Thread.sleep(millis);
                } finally {
                    frozen.resume();
                }
                detail = "worker " + worker + " for " + millis + " ms";
                end = System.nanoTime();
            }
            default -> throw new IllegalStateException("unknown fault " + kind);
        }
        synchronized (this) {
            applied.add(new FaultRecord(kind, detail, start, end, targets, worker));
        }
    }

    /** @return the Redis under test, or one time in three two of the three RedLock masters */
    private List<Integer> targets() {
        if (random.nextInt(3) != 0) {
            return List.of(FaultRecord.MAIN_SERVER);
        }
        int spared = random.nextInt(servers.size());
        return IntStream.range(0, servers.size()).filter(index -> index != spared).boxed().toList();
    }

    /** Runs {@code action} on every target at once, each on its own thread, and waits for all. */
    private void onEach(List<Integer> targets, Consumer<RedisServer> action) {
        CompletableFuture.allOf(targets.stream()
                .map(index -> CompletableFuture.runAsync(() -> action.accept(servers.get(index)), OWN_THREAD))
                .toArray(CompletableFuture[]::new)).join();
    }
}

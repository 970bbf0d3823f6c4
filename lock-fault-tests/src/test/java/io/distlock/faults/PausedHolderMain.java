package io.distlock.faults;

import io.distlock.core.FencedLock;
import io.distlock.core.LockClient;
import io.distlock.core.LockLostException;
import io.distlock.core.RecordingListener;
import io.distlock.core.TokenCheckingStore;
import io.distlock.spring.metrics.DistLockMetrics;
import io.distlock.test.Polling;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Child JVM of {@link PausedHolderTest}: a fenced-lock holder with a short watchdog lease that
 * writes through a {@link TokenCheckingStore}, then gets frozen (SIGSTOP) by the test. Its events
 * go to a {@link RecordingListener} and, as in an application, to {@link DistLockMetrics} on a
 * Micrometer registry (no Spring context).
 *
 * <p>Arguments: Redis URI, lock name, watchdog timeout in milliseconds, store key. Prints
 * {@code LOCKED token=<t> wrote=<true|false>}; then, on {@code REPORT} from stdin, waits (bounded)
 * for the lost event and prints {@code REPORT lostEvents=<n> lostMeter=<n> unlock=<outcome>
 * lateWrite=<true|false>}: what the holder learned after it was thawed.
 */
public final class PausedHolderMain {

    private PausedHolderMain() {
    }

    public static void main(String[] args) throws Exception {
        String uri = args[0];
        RecordingListener events = new RecordingListener();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (LockClient client = LockClient.builder()
                .redisUri(uri)
                .watchdogTimeout(Duration.ofMillis(Long.parseLong(args[2])))
                .listener(events)
                .build()) {
            new DistLockMetrics(client).bindTo(registry);
            TokenCheckingStore store = new TokenCheckingStore(uri, args[3]);
            FencedLock lock = client.getFencedLock(args[1]);

            long token = lock.lockAndGetToken();
            boolean wrote = store.write("written by the first holder", token);
            System.out.println("LOCKED token=" + token + " wrote=" + wrote);
            System.out.flush();

            String command = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
            if (!"REPORT".equals(command)) {
                throw new IllegalStateException("expected REPORT on stdin, got " + command);
            }
            try {
                Polling.awaitTrue("the watchdog reports the lease lost", Duration.ofSeconds(15),
                        () -> !events.lost.isEmpty());
            } catch (AssertionError e) {
                System.out.println(e.getMessage());  // reported as lostEvents=0 below
            }
            double lostMeter = registry.find("distlock.lost").counters().stream().mapToDouble(Counter::count).sum();
            String unlock;
            try {
                lock.unlock();
                unlock = "returned";
            } catch (LockLostException e) {
                unlock = "LockLostException";
            } catch (RuntimeException e) {
                unlock = e.getClass().getSimpleName();
            }
            boolean lateWrite = store.write("late write of the first holder", token);
            System.out.println("REPORT lostEvents=" + events.lost.size() + " lostMeter=" + Math.round(lostMeter)
                    + " unlock=" + unlock + " lateWrite=" + lateWrite);
            System.out.flush();
        }
    }
}

package io.distlock.faults;

import io.distlock.core.LockClient;
import io.distlock.core.LockException;
import io.distlock.core.LockLostException;
import io.distlock.core.RecordingListener;
import io.distlock.core.RedisLock;
import io.distlock.core.ScriptStats;
import io.distlock.core.TestClients;
import io.distlock.test.RedisExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static io.distlock.test.Polling.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Redis restart: Redis is stopped for a few seconds and started again (empty: the fixture keeps no
 * data) while 50 threads wait for locks that other holders hold. Every waiter ends, acquired or
 * failed, within its wait time; afterwards the clients renew nothing, are subscribed to nothing, and
 * a new waiter is woken by a release message again.
 */
@Timeout(60)
class RedisRestartTest {

    private static final int WAITERS = 50;
    private static final int NAMES = 5;
    private static final long WAIT_MS = 20_000;
    /** Scheduling slack on a loaded machine beyond the wait time. */
    private static final long SLACK_MS = 10_000;
    private static final long OUTAGE_MS = 3_000;

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    @RegisterExtension
    final TestClients clients = new TestClients();

    private enum Outcome { ACQUIRED, TIMED_OUT, FAILED }

    /** @param atNanos when the waiter acquired, or gave up */
    private record Result(Outcome outcome, long atNanos) {
    }

    @Test
    void waitersEndInTimeAcrossARestartAndTheClientsComeBackClean() throws Exception {
        LockClient holders = clients.open(redis.server());
        RecordingListener waiterEvents = new RecordingListener();
        LockClient waiters = clients.open(redis.server(), b -> b.listener(waiterEvents));
        List<RedisLock> held = new ArrayList<>();
        for (int n = 0; n < NAMES; n++) {
            RedisLock lock = holders.getLock("restart:" + n);
            lock.lock();
            held.add(lock);
        }

        ExecutorService pool = Executors.newFixedThreadPool(WAITERS);
        long stoppedAt;
        List<Result> results = new ArrayList<>();
        try {
            long startedAt = System.nanoTime();
            List<Future<Result>> futures = new ArrayList<>();
            for (int w = 0; w < WAITERS; w++) {
                RedisLock lock = waiters.getLock("restart:" + (w % NAMES));
                futures.add(pool.submit(() -> waitFor(lock)));
            }
            awaitTrue("all waiters wait", Duration.ofSeconds(15), () -> waiterEvents.waiting.size() == WAITERS);

            stoppedAt = System.nanoTime();
            redis.server().stop();
            Thread.sleep(OUTAGE_MS);  // the outage itself, not a wait for something to happen
            redis.server().start();

            long deadline = startedAt + TimeUnit.MILLISECONDS.toNanos(WAIT_MS + SLACK_MS);
            for (Future<Result> future : futures) {
                results.add(future.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
            }
        } finally {
            pool.shutdownNow();
        }

        Map<Outcome, Long> outcomes = results.stream().collect(Collectors.groupingBy(Result::outcome, Collectors.counting()));
        long lastAcquiredMs = results.stream().filter(result -> result.outcome() == Outcome.ACQUIRED)
                .mapToLong(result -> TimeUnit.NANOSECONDS.toMillis(result.atNanos() - stoppedAt)).max().orElse(-1);
        System.out.printf("waiters across a Redis restart: %s; last acquisition %d ms after the stop%n", outcomes,
                lastAcquiredMs);
        assertThat(results).filteredOn(result -> result.outcome() == Outcome.ACQUIRED)
                .as("nobody acquired while the holders held")
                .allSatisfy(result -> assertThat(result.atNanos()).isGreaterThan(stoppedAt));
        assertThat(outcomes.getOrDefault(Outcome.ACQUIRED, 0L)).as("waiters that acquired after the restart: %s", outcomes)
                .isPositive();
        // The restart freed every lock long before the waits end: a waiter that timed out slept
        // through its wake-up.
        assertThat(outcomes.getOrDefault(Outcome.TIMED_OUT, 0L)).as("waiters that timed out: %s", outcomes).isZero();

        // The restart emptied Redis: the holders learn that their leases are gone.
        for (RedisLock lock : held) {
            assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class);
        }
        for (LockClient client : List.of(holders, waiters)) {
            awaitTrue("no renewal left and no subscription left", Duration.ofSeconds(10),
                    () -> client.watchdogHoldCount() == 0 && client.activeSubscriptions() == 0);
        }
        assertWaiterIsWokenByTheRelease(holders.getLock("restart:fresh"), waiters.getLock("restart:fresh"));
    }

    private static Result waitFor(RedisLock lock) {
        try {
            if (!lock.tryLock(WAIT_MS, TimeUnit.MILLISECONDS)) {
                return new Result(Outcome.TIMED_OUT, System.nanoTime());
            }
            long acquiredAt = System.nanoTime();
            lock.unlock();
            return new Result(Outcome.ACQUIRED, acquiredAt);
        } catch (LockException e) {
            return new Result(Outcome.FAILED, System.nanoTime());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** The subscriptions work again: a release wakes the waiter long before the holder's lease ends. */
    private void assertWaiterIsWokenByTheRelease(RedisLock holder, RedisLock waiter) throws Exception {
        holder.lock(30, TimeUnit.SECONDS);  // an explicit lease: no renewal scripts to count
        ScriptStats.reset(redis.server());
        ExecutorService thread = Executors.newSingleThreadExecutor();
        try {
            Future<Long> acquiredAt = thread.submit(() -> {
                assertThat(waiter.tryLock(WAIT_MS, TimeUnit.MILLISECONDS)).isTrue();
                long at = System.nanoTime();
                waiter.unlock();
                return at;
            });
            awaitTrue("the waiter tried before and after subscribing, and sleeps", Duration.ofSeconds(10),
                    () -> ScriptStats.scriptCalls(redis.server()) >= 2);
            long releasedAt = System.nanoTime();
            holder.unlock();
            long wokenAfterMs = TimeUnit.NANOSECONDS.toMillis(acquiredAt.get(20, TimeUnit.SECONDS) - releasedAt);
            assertThat(wokenAfterMs).as("release to acquisition, against a 30 s lease").isLessThan(3_000);
        } finally {
            thread.shutdownNow();
        }
    }
}

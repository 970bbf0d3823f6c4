package io.distlock.core;

import io.distlock.test.RedisExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

@Timeout(60)
class MutualExclusionTest {

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    @RegisterExtension
    final TestClients clients = new TestClients();

    /** A non-atomic read-modify-write counter: lost updates show any overlap of critical sections. */
    private static final class UnsafeCounter {
        volatile int value;
    }

    @Test
    // Thread.yield() between the read and the write of the counter widens the window in which an
    // overlapping holder would lose an update: the overlap this test looks for.
    @SuppressWarnings("ThreadPriorityCheck")
    void twoClientsWithSeveralThreadsEachNeverOverlap() throws Exception {
        int threadsPerClient = 4;
        int iterations = 150;
        List<LockClient> lockClients = List.of(clients.open(redis.server()), clients.open(redis.server()));
        UnsafeCounter counter = new UnsafeCounter();
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger maxInside = new AtomicInteger();

        ExecutorService pool = Executors.newFixedThreadPool(threadsPerClient * lockClients.size());
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (LockClient client : lockClients) {
                for (int t = 0; t < threadsPerClient; t++) {
                    workers.add(pool.submit(() -> {
                        RedisLock lock = client.getLock("counter");
                        for (int i = 0; i < iterations; i++) {
                            lock.lock();
                            try {
                                maxInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
                                int read = counter.value;
                                Thread.yield();
                                counter.value = read + 1;
                                inside.decrementAndGet();
                            } finally {
                                lock.unlock();
                            }
                        }
                        return null;
                    }));
                }
            }
            for (Future<?> worker : workers) {
                worker.get(50, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(counter.value).isEqualTo(threadsPerClient * lockClients.size() * iterations);
        assertThat(maxInside.get()).isEqualTo(1);
        assertThat(lockClients.get(0).getLock("counter").isLocked()).isFalse();
    }
}

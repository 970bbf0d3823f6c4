package io.distlock.sample;

import io.distlock.core.LockTemplate;
import org.springframework.stereotype.Service;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Processes an order once: the check "already processed?" and the processing happen under the
 * order's lock, so concurrent requests for one order cannot both process it.
 */
@Service
public class OrderService {

    private final LockTemplate locks;
    private final Map<String, AtomicInteger> processed = new ConcurrentHashMap<>();

    OrderService(LockTemplate locks) {
        this.locks = locks;
    }

    /**
     * @param orderId the order
     * @return {@code true} if this call processed it, {@code false} if it was already processed
     */
    public boolean process(String orderId) {
        return locks.execute("order:" + orderId, null, null, () -> {
            AtomicInteger count = processed.computeIfAbsent(orderId, id -> new AtomicInteger());
            if (count.get() > 0) {
                return false;
            }
            simulateWork();
            count.incrementAndGet();
            return true;
        });
    }

    /**
     * @param orderId the order
     * @return how many times it was processed (0 or 1)
     */
    public int timesProcessed(String orderId) {
        AtomicInteger count = processed.get(orderId);
        return count == null ? 0 : count.get();
    }

    private static void simulateWork() {
        try {
            Thread.sleep(5);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

package io.distlock.sample.gateway;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Stands in for an external payment provider: it charges every call it gets, as a payment API
 * without an idempotency key does, takes a while to answer, and counts the charges per order. The
 * count is the race demo's oracle: it sits outside the order service's database, so no constraint
 * there can hide a second charge. It also counts the most charges it was serving at once, the
 * oracle of the semaphore that limits them ({@link PaymentGateway#charge}). With two sample
 * instances, both call the first one's provider.
 */
@RestController
class FakePaymentProvider {

    private final Map<String, AtomicInteger> charges = new ConcurrentHashMap<>();
    private final AtomicInteger inProgress = new AtomicInteger();
    private final AtomicInteger mostAtOnce = new AtomicInteger();
    private final Duration latency;

    FakePaymentProvider(@Value("${sample.payment-gateway.latency:50ms}") Duration latency) {
        this.latency = latency;
    }

    @PostMapping("/fake-provider/charges")
    Map<String, Object> charge(@RequestParam String order, @RequestParam BigDecimal amount) throws InterruptedException {
        mostAtOnce.accumulateAndGet(inProgress.incrementAndGet(), Math::max);
        try {
            Thread.sleep(latency.toMillis());
            int count = charges.computeIfAbsent(order, any -> new AtomicInteger()).incrementAndGet();
            return Map.of("chargeId", UUID.randomUUID().toString(), "order", order, "amount", amount, "charges", count);
        } finally {
            inProgress.decrementAndGet();
        }
    }

    /** @return the most charges served at once since the count was last reset */
    @GetMapping("/fake-provider/concurrency")
    Map<String, Object> concurrency() {
        return Map.of("mostAtOnce", mostAtOnce.get());
    }

    /** @return the count of the most charges at once, started afresh */
    @DeleteMapping("/fake-provider/concurrency")
    Map<String, Object> resetConcurrency() {
        mostAtOnce.set(inProgress.get());
        return concurrency();
    }

    @GetMapping("/fake-provider/charges/{order}")
    Map<String, Object> charges(@PathVariable String order) {
        AtomicInteger count = charges.get(order);
        return Map.of("order", order, "charges", count == null ? 0 : count.get());
    }
}

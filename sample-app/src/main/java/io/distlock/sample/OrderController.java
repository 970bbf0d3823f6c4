package io.distlock.sample;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

import java.util.Map;

/**
 * HTTP front of {@link OrderService}.
 */
@RestController
class OrderController {

    private final OrderService orders;

    OrderController(OrderService orders) {
        this.orders = orders;
    }

    @PostMapping("/orders/{id}/process")
    Map<String, Object> process(@PathVariable String id) {
        boolean processedNow = orders.process(id);
        return Map.of("order", id, "processedNow", processedNow, "timesProcessed", orders.timesProcessed(id));
    }

    @GetMapping("/orders/{id}")
    Map<String, Object> status(@PathVariable String id) {
        return Map.of("order", id, "timesProcessed", orders.timesProcessed(id));
    }
}

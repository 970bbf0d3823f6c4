package io.distlock.sample;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import java.util.List;
import java.util.Map;

/**
 * HTTP front of the order, inventory and report services.
 */
@RestController
class OrderController {

    private final OrderService orders;
    private final InventoryService inventory;
    private final ReportService reports;

    OrderController(OrderService orders, InventoryService inventory, ReportService reports) {
        this.orders = orders;
        this.inventory = inventory;
        this.reports = reports;
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

    @PostMapping("/inventory/reserve")
    Map<String, Object> reserve(@RequestBody List<String> skus) {
        return inventory.reserve(skus)
                .<Map<String, Object>>map(left -> Map.of("reserved", true, "available", left))
                .orElse(Map.of("reserved", false, "reason", "another reservation holds one of these SKUs; try again"));
    }

    @GetMapping("/reports/daily")
    Map<String, Object> dailyReport() {
        return reports.dailyReport();
    }
}

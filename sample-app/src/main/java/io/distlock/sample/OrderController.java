package io.distlock.sample;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * HTTP front of the order, inventory, price, ledger and report services.
 */
@RestController
class OrderController {

    private final OrderService orders;
    private final InventoryService inventory;
    private final ReportService reports;
    private final PriceService prices;
    private final LedgerService ledger;

    OrderController(OrderService orders, InventoryService inventory, ReportService reports, PriceService prices,
                    LedgerService ledger) {
        this.orders = orders;
        this.inventory = inventory;
        this.reports = reports;
        this.prices = prices;
        this.ledger = ledger;
    }

    @PostMapping("/orders/{id}")
    Map<String, Object> place(@PathVariable String id) {
        orders.place(id);
        return Map.of("order", id, "timesProcessed", 0);
    }

    /** {@code ?lock=false} calls the unlocked twin, for the race demo. */
    @PostMapping("/orders/{id}/process")
    Map<String, Object> process(@PathVariable String id, @RequestParam(defaultValue = "true") boolean lock) {
        boolean processedNow = lock ? orders.process(id) : orders.processWithoutLock(id);
        return Map.of("order", id, "processedNow", processedNow, "timesProcessed", orders.timesProcessed(id));
    }

    @GetMapping("/orders/{id}")
    Map<String, Object> status(@PathVariable String id) {
        return Map.of("order", id, "timesProcessed", orders.timesProcessed(id), "timesCharged", orders.timesCharged(id));
    }

    @PostMapping("/inventory/reserve")
    Map<String, Object> reserve(@RequestBody List<String> skus) {
        return inventory.reserve(skus)
                .<Map<String, Object>>map(left -> Map.of("reserved", true, "available", left))
                .orElse(Map.of("reserved", false, "reason", "another reservation holds one of these SKUs; try again"));
    }

    @GetMapping("/prices/{list}/{sku}")
    Map<String, Object> price(@PathVariable String list, @PathVariable String sku) {
        return Map.of("list", list, "sku", sku, "price", prices.price(list, sku));
    }

    @PutMapping("/prices/{list}/{sku}")
    Map<String, Object> changePrice(@PathVariable String list, @PathVariable String sku, @RequestParam BigDecimal price) {
        prices.change(list, sku, price);
        return Map.of("list", list, "sku", sku, "price", price);
    }

    @PostMapping("/ledger/{account}/entries")
    Map<String, Object> post(@PathVariable String account, @RequestParam BigDecimal amount) {
        return ledger.post(account, amount);
    }

    @GetMapping("/reports/daily")
    Map<String, Object> dailyReport() {
        return reports.dailyReport();
    }
}

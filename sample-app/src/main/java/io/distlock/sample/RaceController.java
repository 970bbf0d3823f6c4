package io.distlock.sample;

import org.springframework.core.env.Environment;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * The race demonstration: fires many concurrent HTTP requests at {@code POST /orders/{id}/process}
 * of this very service for a few fresh orders, and reports how often each order was processed.
 * With the lock, every order is processed exactly once, however the requests interleave.
 */
@RestController
class RaceController {

    private static final int MAX_ORDERS = 50;
    private static final int MAX_REQUESTS_PER_ORDER = 200;

    private final Environment environment;
    private final OrderService orders;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    RaceController(Environment environment, OrderService orders) {
        this.environment = environment;
        this.orders = orders;
    }

    /** The outcome for one order. */
    record OrderOutcome(String order, int requests, int processedNow, int alreadyProcessed, int failed,
                        int timesProcessed) {
    }

    /** The outcome of the whole race. */
    record RaceResult(int orders, int requestsPerOrder, int concurrentRequests, long elapsedMillis,
                      boolean everyOrderProcessedExactlyOnce, List<OrderOutcome> results) {
    }

    @PostMapping("/demo/race")
    RaceResult race(@RequestParam(defaultValue = "3") int orders,
                    @RequestParam(defaultValue = "20") int requestsPerOrder) {
        if (orders < 1 || orders > MAX_ORDERS || requestsPerOrder < 1 || requestsPerOrder > MAX_REQUESTS_PER_ORDER) {
            throw new IllegalArgumentException("orders must be 1.." + MAX_ORDERS + " and requestsPerOrder 1.."
                    + MAX_REQUESTS_PER_ORDER);
        }
        String base = "http://localhost:" + environment.getRequiredProperty("local.server.port");
        String run = UUID.randomUUID().toString().substring(0, 8);
        long start = System.nanoTime();
        List<List<CompletableFuture<HttpResponse<String>>>> responses = new ArrayList<>();
        for (int o = 1; o <= orders; o++) {
            HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/orders/race-" + run + "-" + o + "/process"))
                    .timeout(Duration.ofSeconds(60)).POST(HttpRequest.BodyPublishers.noBody()).build();
            List<CompletableFuture<HttpResponse<String>>> perOrder = new ArrayList<>();
            for (int r = 0; r < requestsPerOrder; r++) {
                perOrder.add(http.sendAsync(request, HttpResponse.BodyHandlers.ofString()));
            }
            responses.add(perOrder);
        }
        List<OrderOutcome> results = new ArrayList<>();
        for (int o = 1; o <= orders; o++) {
            int now = 0;
            int before = 0;
            int failed = 0;
            for (CompletableFuture<HttpResponse<String>> response : responses.get(o - 1)) {
                HttpResponse<String> answer = response.handle((r, e) -> e == null ? r : null).join();
                if (answer == null || answer.statusCode() != 200) {
                    failed++;
                } else if (answer.body().contains("\"processedNow\":true")) {
                    now++;
                } else {
                    before++;
                }
            }
            String order = "race-" + run + "-" + o;
            results.add(new OrderOutcome(order, requestsPerOrder, now, before, failed, this.orders.timesProcessed(order)));
        }
        boolean exactlyOnce = results.stream().allMatch(r -> r.processedNow() == 1 && r.timesProcessed() == 1);
        return new RaceResult(orders, requestsPerOrder, orders * requestsPerOrder,
                Duration.ofNanos(System.nanoTime() - start).toMillis(), exactlyOnce, results);
    }
}

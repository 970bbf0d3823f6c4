package io.distlock.sample.race;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The race demonstration, over HTTP only: places fresh orders, fires concurrent
 * {@code POST /orders/{id}/process} requests for each at the given sample instances in turn, and
 * asks the payment provider how often each order was charged. It runs once through the locked
 * method and once through its unlocked twin ({@code ?lock=false}). The provider's count is the
 * oracle: it does not come from the lock, nor from a database constraint.
 */
public final class Race {

    /** Most concurrent requests of one round: each holds a server thread, and the provider needs some too. */
    public static final int MAX_CONCURRENT_REQUESTS = 100;

    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final JsonMapper json = JsonMapper.builder().build();

    /**
     * @param instances        base URLs of the sample instances, sharing one Redis, one database
     *                         and one payment provider; the first also places and reads the orders
     * @param orders           fresh orders per round
     * @param requestsPerOrder concurrent requests per order
     * @return both rounds
     * @throws IllegalArgumentException if the numbers are out of range
     */
    public RaceResult run(List<URI> instances, int orders, int requestsPerOrder) {
        if (instances.isEmpty()) {
            throw new IllegalArgumentException("the race needs at least one instance");
        }
        checkSize(orders, requestsPerOrder);
        String run = UUID.randomUUID().toString().substring(0, 8);
        return new RaceResult(instances.stream().map(URI::toString).toList(), orders, requestsPerOrder,
                round(instances, "race-" + run + "-locked-", orders, requestsPerOrder, true),
                round(instances, "race-" + run + "-unlocked-", orders, requestsPerOrder, false));
    }

    /**
     * @param orders           fresh orders per round
     * @param requestsPerOrder concurrent requests per order
     * @throws IllegalArgumentException if a round would not have 1 to {@value #MAX_CONCURRENT_REQUESTS} requests
     */
    public static void checkSize(int orders, int requestsPerOrder) {
        if (orders < 1 || requestsPerOrder < 1 || (long) orders * requestsPerOrder > MAX_CONCURRENT_REQUESTS) {
            throw new IllegalArgumentException("orders and requestsPerOrder must be at least 1, with orders x "
                    + "requestsPerOrder at most " + MAX_CONCURRENT_REQUESTS + "; got " + orders + " x " + requestsPerOrder);
        }
    }

    private RaceRound round(List<URI> instances, String prefix, int orders, int requestsPerOrder, boolean lock) {
        URI first = instances.get(0);
        List<String> ids = new ArrayList<>();
        for (int o = 1; o <= orders; o++) {
            ids.add(prefix + o);
            call(post(first, "/orders/" + ids.get(o - 1)));
        }
        // The first instance's payment provider serves both: it counts the most charges at once.
        call(HttpRequest.newBuilder(first.resolve("/fake-provider/concurrency")).timeout(REQUEST_TIMEOUT).DELETE()
                .build());
        long start = System.nanoTime();
        List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
        for (String id : ids) {
            for (int r = 0; r < requestsPerOrder; r++) {
                answers.add(send(post(instances.get(r % instances.size()), "/orders/" + id + "/process?lock=" + lock)));
            }
        }
        int now = 0;
        int before = 0;
        int failed = 0;
        for (CompletableFuture<HttpResponse<String>> answer : answers) {
            HttpResponse<String> response = answer.handle((r, e) -> e == null ? r : null).join();
            if (response == null || response.statusCode() != 200) {
                failed++;
            } else if (json.readTree(response.body()).path("processedNow").asBoolean()) {
                now++;
            } else {
                before++;
            }
        }
        long elapsed = Duration.ofNanos(System.nanoTime() - start).toMillis();
        List<Integer> times = new ArrayList<>();
        List<Integer> charges = new ArrayList<>();
        for (String id : ids) {
            JsonNode order = call(HttpRequest.newBuilder(first.resolve("/orders/" + id)).timeout(REQUEST_TIMEOUT).build());
            times.add(order.path("timesProcessed").asInt());
            charges.add(order.path("timesCharged").asInt());
        }
        int mostAtOnce = call(HttpRequest.newBuilder(first.resolve("/fake-provider/concurrency"))
                .timeout(REQUEST_TIMEOUT).build()).path("mostAtOnce").asInt();
        return RaceRound.of(now, before, failed, times, charges, elapsed, mostAtOnce);
    }

    private static HttpRequest post(URI instance, String path) {
        return HttpRequest.newBuilder(instance.resolve(path)).timeout(REQUEST_TIMEOUT)
                .POST(HttpRequest.BodyPublishers.noBody()).build();
    }

    /**
     * @throws IllegalStateException if the instance cannot be reached or does not answer 200
     */
    private JsonNode call(HttpRequest request) {
        HttpResponse<String> response;
        try {
            response = send(request).join();
        } catch (CompletionException e) {
            throw new IllegalStateException(request.method() + " " + request.uri() + " failed: " + e.getCause(),
                    e.getCause());
        }
        if (response.statusCode() != 200) {
            throw new IllegalStateException(request.method() + " " + request.uri() + " answered "
                    + response.statusCode() + ": " + response.body());
        }
        return json.readTree(response.body());
    }

    private CompletableFuture<HttpResponse<String>> send(HttpRequest request) {
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofString());
    }
}

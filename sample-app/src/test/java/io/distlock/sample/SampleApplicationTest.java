package io.distlock.sample;

import io.distlock.core.LockClient;
import io.distlock.core.RedisLock;
import io.distlock.test.RedisExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Starts the sample on a random port against a real Redis and uses it over HTTP, as the README and
 * docs/sample-app.md tell a newcomer to.
 */
@Timeout(120)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class SampleApplicationTest {

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    @DynamicPropertySource
    static void redisUrl(DynamicPropertyRegistry registry) {
        registry.add("distlock.redis.url", () -> redis.server().uri());
    }

    @LocalServerPort
    int port;

    @Autowired
    AccountStore accounts;

    @Autowired
    LockClient client;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void theRaceDemoShowsDoubleChargesWithoutTheLockAndNoneWithIt() throws Exception {
        HttpResponse<String> race = post("/demo/race?orders=4&requestsPerOrder=25", null);

        assertThat(race.statusCode()).as(race.body()).isEqualTo(200);
        JsonNode result = JsonMapper.builder().build().readTree(race.body());
        JsonNode locked = result.path("withLock");
        assertThat(locked.path("requests").asInt()).isEqualTo(100);
        assertThat(locked.path("failed").asInt()).as(race.body()).isZero();
        assertThat(locked.path("processedNow").asInt()).isEqualTo(4);
        assertThat(locked.path("chargesPerOrder").toString()).isEqualTo("[1,1,1,1]");
        assertThat(locked.path("doubleCharges").asInt()).isZero();
        assertThat(locked.path("everyOrderProcessedExactlyOnce").asBoolean()).isTrue();
        JsonNode unlocked = result.path("withoutLock");
        assertThat(unlocked.path("requests").asInt()).isEqualTo(100);
        assertThat(unlocked.path("doubleCharges").asInt()).as(race.body()).isPositive();
        assertThat(unlocked.path("everyOrderProcessedExactlyOnce").asBoolean()).isFalse();
        assertThat(locked.path("mostConcurrentCharges").asInt()).as("the payment provider's semaphore")
                .isBetween(1, 2);
        assertThat(unlocked.path("mostConcurrentCharges").asInt()).as("many charges, two at a time").isEqualTo(2);
    }

    @Test
    void aSecondRaceWhileOneRunsIsRefusedAtOnce() throws Exception {
        RedisLock running = client.getLock("demo:race");
        assertThat(running.tryLockAsync(0, 60, TimeUnit.SECONDS, "another-race").get(10, TimeUnit.SECONDS)).isTrue();
        try {
            HttpResponse<String> second = post("/demo/race", null);
            assertThat(second.statusCode()).as(second.body()).isEqualTo(409);
            assertThat(second.body()).as("the starter's answer").contains("\"title\":\"Lock busy\"",
                    "\"lock\":\"demo\"");
        } finally {
            running.unlockAsync("another-race").get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void ordersPaymentsInventoryAndReportsWorkOverHttp() throws Exception {
        assertThat(post("/orders/42/process", null).body()).contains("\"processedNow\":true");
        assertThat(post("/orders/42/process", null).body()).contains("\"processedNow\":false", "\"timesProcessed\":1");
        assertThat(get("/orders/42").body()).contains("\"timesCharged\":1");
        assertThat(post("/orders/43", null).statusCode()).isEqualTo(200);
        assertThat(post("/orders/43", null).statusCode()).as("placed twice").isEqualTo(409);
        assertThat(post("/inventory/reserve", "[\"pear\",\"apple\"]").body())
                .contains("\"reserved\":true", "\"apple\":99", "\"pear\":99");
        assertThat(post("/inventory/reserve", "[\"kiwi\"]").statusCode()).isEqualTo(400);
        assertThat(get("/reports/daily").body()).contains("\"payments\":");
        assertThat(post("/demo/race?orders=0", null).statusCode()).isEqualTo(400);
        assertThat(post("/demo/race?orders=5&requestsPerOrder=21", null).body()).contains("at most 100");
    }

    @Test
    void pricesUseTheReadWriteLockAndTheLedgerRefusesStaleTokens() throws Exception {
        assertThat(get("/prices/retail/apple").body()).contains("\"price\":0.5");
        assertThat(put("/prices/retail/apple?price=0.55").statusCode()).isEqualTo(200);
        assertThat(get("/prices/retail/apple").body()).contains("\"price\":0.55");
        assertThat(get("/prices/retail/kiwi").statusCode()).isEqualTo(400);

        String first = post("/ledger/acme/entries?amount=10", null).body();
        String second = post("/ledger/acme/entries?amount=5", null).body();
        assertThat(second).contains("\"balance\":15");
        assertThat(token(second)).isGreaterThan(token(first));
        assertThatThrownBy(() -> accounts.add("acme", BigDecimal.ONE, token(first)))
                .as("a stalled poster coming back with its old token").isInstanceOf(AccountStore.StaleTokenException.class);
        assertThat(post("/ledger/acme/entries?amount=1", null).body()).contains("\"balance\":16");
    }

    private static long token(String json) {
        Matcher token = Pattern.compile("\"token\":(\\d+)").matcher(json);
        assertThat(token.find()).as(json).isTrue();
        return Long.parseLong(token.group(1));
    }

    @Test
    void lockMetricsAndHealthAreExposedThroughTheActuator() throws Exception {
        post("/orders/7/process", null);

        String prometheus = get("/actuator/prometheus").body();
        assertThat(prometheus)
                // The timers come from distlock's observations, through Spring Boot's meter handler.
                .contains("distlock_acquire_seconds_count{error=\"none\",name=\"OrderService.process\","
                        + "result=\"acquired\",type=\"reentrant\"}")
                .contains("distlock_held_seconds_count{error=\"none\",name=\"OrderService.process\",type=\"reentrant\"}")
                .contains("distlock_held_active_seconds_count{name=\"OrderService.process\",type=\"reentrant\"} 0")
                .contains("distlock_active{name=\"OrderService.process\",type=\"reentrant\"} 0.0")
                .contains("distlock_watchdog_locks ")
                .doesNotContain("OrderService.process:7");
        assertThat(get("/actuator/health").body()).contains("\"distlock\":{", "\"status\":\"UP\"");
    }

    @Test
    void theDistlockEndpointShowsHeldLocksAndForceReleasesThem() throws Exception {
        RedisLock stuck = client.getLock("left-behind");
        assertThat(stuck.tryLockAsync(0, 60, TimeUnit.SECONDS, "crashed-job").get(10, TimeUnit.SECONDS)).isTrue();

        assertThat(get("/actuator/distlock").body())
                .contains("\"name\":\"left-behind\"", "\"holderId\":\"crashed-job\"", "\"state\":\"HELD\"")
                .contains("\"keyPrefix\":\"sample:\"");

        HttpResponse<String> release = http.send(HttpRequest.newBuilder(
                        URI.create("http://localhost:" + port + "/actuator/distlock/left-behind"))
                .timeout(Duration.ofSeconds(30)).DELETE().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(release.statusCode()).isEqualTo(200);
        assertThat(release.body()).contains("\"released\":true");
        assertThat(stuck.isLocked()).isFalse();
    }

    private HttpResponse<String> post(String path, String json) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .timeout(Duration.ofSeconds(60));
        if (json == null) {
            request.POST(HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json));
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> put(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .timeout(Duration.ofSeconds(30)).PUT(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }
}

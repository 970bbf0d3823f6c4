package io.distlock.sample;

import io.distlock.test.RedisExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

@Timeout(120)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class SampleApplicationTest {

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    @DynamicPropertySource
    static void redisUrl(DynamicPropertyRegistry registry) {
        registry.add("sample.redis-url", () -> redis.server().uri());
    }

    @LocalServerPort
    int port;

    @Test
    void concurrentRequestsProcessAnOrderExactlyOnce() throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/orders/42/process"))
                .timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.noBody())
                .build();

        List<CompletableFuture<HttpResponse<String>>> responses = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            responses.add(http.sendAsync(request, HttpResponse.BodyHandlers.ofString()));
        }
        long processedNow = 0;
        for (CompletableFuture<HttpResponse<String>> response : responses) {
            HttpResponse<String> r = response.get(60, TimeUnit.SECONDS);
            assertThat(r.statusCode()).isEqualTo(200);
            if (r.body().contains("\"processedNow\":true")) {
                processedNow++;
            }
        }
        assertThat(processedNow).isEqualTo(1);

        HttpResponse<String> status = http.send(HttpRequest.newBuilder(
                URI.create("http://localhost:" + port + "/orders/42")).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(status.body()).contains("\"timesProcessed\":1");
    }
}

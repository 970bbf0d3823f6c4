package io.distlock.sample.gateway;

import io.distlock.spring.DistributedLock;
import io.distlock.spring.LockType;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.core.env.Environment;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.stereotype.Component;
import org.springframework.web.client.RestClient;

import java.math.BigDecimal;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Map;

/**
 * The order service's client of the payment provider, over HTTP. The provider is at
 * {@code sample.payment-gateway.url}; by default this instance's own {@link FakePaymentProvider}.
 */
@Component
public class PaymentGateway {

    private final Environment environment;
    private final String configuredUrl;
    private final RestClient http;

    PaymentGateway(Environment environment, @Value("${sample.payment-gateway.url:}") String configuredUrl) {
        this.environment = environment;
        this.configuredUrl = configuredUrl;
        JdkClientHttpRequestFactory requests = new JdkClientHttpRequestFactory(HttpClient.newBuilder()
                .connectTimeout(Duration.ofSeconds(5)).build());
        requests.setReadTimeout(Duration.ofSeconds(30));
        this.http = RestClient.builder().requestFactory(requests).build();
    }

    /**
     * Charges the customer. Every call is a charge: calling it twice for one order charges twice.
     * The provider allows only so many calls at once per merchant, so a semaphore shared by every
     * instance lets {@code sample.payment-gateway.max-concurrent-calls} (2) calls in at a time;
     * the others wait for a permit.
     *
     * @param orderId the order
     * @param amount  what to charge
     * @return the provider's id of the charge
     */
    @DistributedLock(name = "payment-provider", type = LockType.SEMAPHORE,
            permits = "${sample.payment-gateway.max-concurrent-calls:2}", waitTime = "30s")
    public String charge(String orderId, BigDecimal amount) {
        Map<?, ?> answer = http.post().uri(providerUrl() + "/fake-provider/charges?order={order}&amount={amount}",
                orderId, amount).retrieve().body(Map.class);
        return String.valueOf(answer.get("chargeId"));
    }

    /**
     * @param orderId the order
     * @return how many times the provider charged it
     */
    public int chargesOf(String orderId) {
        Map<?, ?> answer = http.get().uri(providerUrl() + "/fake-provider/charges/{order}", orderId).retrieve()
                .body(Map.class);
        return ((Number) answer.get("charges")).intValue();
    }

    private String providerUrl() {
        return configuredUrl.isBlank()
                ? "http://localhost:" + environment.getRequiredProperty("local.server.port")
                : configuredUrl;
    }
}

package io.distlock.sample;

import io.distlock.test.RedisExtension;
import io.distlock.test.RedisServer;
import io.distlock.test.RedisServerOptions;
import io.distlock.test.TestCertificates;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The sample as an operator runs it against a Redis that needs an ACL user and TLS with a private
 * CA, configured the way docs/spring-boot.md shows: the password shows neither in the actuator nor in the
 * startup failure report Spring Boot logs when it is wrong.
 */
@Timeout(180)
@ExtendWith(OutputCaptureExtension.class)
class SecuredRedisTest {

    private static final String USER = "orders-app";
    private static final String PASSWORD = "Sample-Acl-Pass-31337";
    private static final String WRONG_PASSWORD = "Sample-Wrong-Pass-2718";

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single(RedisServerOptions.defaults()
            .withTls(TestCertificates.shared()).withAclUser(USER, PASSWORD));

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void actuatorShowsHealthButNeitherPasswordNorConfigurationEndpoints(CapturedOutput output) throws Exception {
        try (ConfigurableApplicationContext app = start(PASSWORD)) {
            int port = app.getEnvironment().getRequiredProperty("local.server.port", Integer.class);

            HttpResponse<String> health = get(port, "/actuator/health");
            assertThat(health.body()).contains("\"distlock\":{", "\"status\":\"UP\"").doesNotContain(PASSWORD);
            assertThat(post(port, "/orders/1/process").body()).contains("\"processedNow\":true");
            // the sample exposes health, prometheus and metrics only: no configprops or env to leak settings
            assertThat(get(port, "/actuator/configprops").statusCode()).isEqualTo(404);
            assertThat(get(port, "/actuator/env").statusCode()).isEqualTo(404);
            assertThat(get(port, "/actuator/prometheus").body()).doesNotContain(PASSWORD);
        }
        assertThat(output.getAll()).contains("Tomcat started on port").doesNotContain(PASSWORD);
    }

    @Test
    void wrongPasswordStopsStartupWithAClearLoggedReasonAndNoPassword(CapturedOutput output) {
        System.out.println("[expected failure] The next startup fails on purpose (a wrong Redis password): the "
                + "APPLICATION FAILED TO START report below is what this test checks, not a failure of the build.");
        assertThatThrownBy(() -> start(WRONG_PASSWORD).close())
                .hasStackTraceContaining("refused the credentials");

        assertThat(output.getAll())
                .contains("APPLICATION FAILED TO START")
                .contains("distlock: Could not connect to Redis at rediss://")
                .contains("Redis refused the credentials")
                .contains("Check the username and password")
                .doesNotContain(WRONG_PASSWORD)
                .doesNotContain(PASSWORD);
    }

    /** Starts the sample with the TLS + ACL settings of docs/spring-boot.md, as command-line properties. */
    private static ConfigurableApplicationContext start(String password) {
        RedisServer server = redis.server();
        return SpringApplication.run(SampleApplication.class,
                "--server.port=0",
                "--spring.datasource.url=jdbc:h2:mem:secured-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1",
                "--distlock.redis.url=rediss://" + server.host() + ":" + server.port(),
                "--distlock.redis.username=" + USER,
                "--distlock.redis.password=" + password,
                "--distlock.redis.ssl-bundle=redis",
                "--spring.ssl.bundle.pem.redis.truststore.certificate=file:"
                        + TestCertificates.shared().caCertificate());
    }

    private HttpResponse<String> get(int port, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(int port, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}

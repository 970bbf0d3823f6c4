package io.distlock.spring.autoconfigure;

import io.distlock.core.LockAcquisitionException;
import io.distlock.core.LockException;
import org.junit.jupiter.api.Test;
import org.springframework.boot.diagnostics.FailureAnalysis;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** What a user sees of the starter before any lock: the startup failure report and IDE metadata. */
class StartupReportTest {

    @Test
    void aWrongPropertyIsReportedWithTheFix() {
        InvalidLockPropertyException wrong = new InvalidLockPropertyException("distlock.key-prefix",
                "'a{b}' contains '{' or '}'", "Use a prefix without braces.");

        FailureAnalysis analysis = new InvalidLockPropertyFailureAnalyzer()
                .analyze(new IllegalStateException("bean creation failed", wrong));

        assertThat(analysis.getDescription()).contains("distlock.key-prefix").contains("a{b}");
        assertThat(analysis.getAction()).isEqualTo("Use a prefix without braces.");
    }

    @Test
    void aConnectionFailureIsReportedWithItsReasonFirst() {
        LockException refused = new LockException("Could not connect to Redis at rediss://***@redis:6380: Redis "
                + "refused the credentials (WRONGPASS ...). Check the username and password.");

        FailureAnalysis analysis = new RedisConnectionFailureAnalyzer()
                .analyze(new IllegalStateException("bean creation failed", refused));

        assertThat(analysis.getDescription()).startsWith("distlock: Could not connect").contains("WRONGPASS");
        assertThat(analysis.getAction()).contains("distlock.redis.url", "password", "ssl-bundle", "spring.data.redis");
        assertThat(new RedisConnectionFailureAnalyzer().analyze(new LockAcquisitionException("lock 'x' is busy")))
                .as("a busy lock is not a connection problem").isNull();
    }

    @Test
    void theAutoConfigurationsConditionsAreReadableWithoutLoadingTheirClasses() throws IOException {
        try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-autoconfigure-metadata.properties")) {
            assertThat(in).as("generated auto-configuration metadata").isNotNull();
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8))
                    .contains(DistLockAutoConfiguration.class.getName() + ".AutoConfigureAfter=");
        }
    }

    @Test
    void everyPropertyHasGeneratedMetadataWithADescriptionAndItsDefault() throws IOException {
        String metadata;
        try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in).as("generated configuration metadata").isNotNull();
            metadata = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        for (String property : List.of("distlock.enabled", "distlock.key-prefix", "distlock.wait-time",
                "distlock.lease-time", "distlock.watchdog.timeout", "distlock.redis.url", "distlock.redis.username",
                "distlock.redis.password", "distlock.redis.ssl", "distlock.redis.ssl-bundle", "distlock.redis.database", "distlock.redis.timeout",
                "distlock.redis.sentinel.master", "distlock.redis.sentinel.nodes", "distlock.redis.cluster.nodes",
                "distlock.aspect.order", "distlock.metrics.max-names", "distlock.web.enabled",
                "distlock.web.busy-status", "distlock.web.retry-after", "management.health.distlock.enabled")) {
            int at = metadata.indexOf("\"name\": \"" + property + "\"");
            assertThat(at).as(property).isNotNegative();
            int next = metadata.indexOf("\"name\"", at + 1);
            int end = next < 0 ? metadata.length() : next;
            assertThat(metadata.substring(at, end)).as(property).contains("\"description\"");
            if (!property.endsWith("url") && !property.contains("redis.") && !property.endsWith("lease-time")
                    && !property.endsWith("retry-after")) {
                assertThat(metadata.substring(at, end)).as(property + " default").contains("\"defaultValue\"");
            }
        }
        assertThat(metadata).as("descriptions are shown as they are: no Javadoc markup").doesNotContain("{@");
    }
}

package io.distlock.spring.aop;

import io.distlock.spring.DistributedLock;
import io.distlock.spring.autoconfigure.DistLockAutoConfiguration;
import io.distlock.test.RedisExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An annotation that cannot work stops startup with Spring Boot's failure report, which names the
 * annotation and the problem, instead of the bean creation exceptions around it.
 */
@Timeout(60)
class InvalidLockAnnotationFailureAnalyzerTest {

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    @Test
    void aKeyWithATypoIsReportedAsSuchAtStartup() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, DistLockAutoConfiguration.class))
                .withPropertyValues("distlock.redis.url=" + redis.server().uri())
                .withBean(Invoices.class)
                .run(context -> {
                    assertThat(context).hasFailed();
                    FailureAnalysis analysis = new InvalidLockAnnotationFailureAnalyzer()
                            .analyze(context.getStartupFailure());

                    assertThat(analysis).as("the failure is analysed").isNotNull();
                    assertThat(analysis.getDescription())
                            .startsWith("@DistributedLock on Invoices.send: key '#invoiceid' refers to")
                            .contains("[invoiceId]");
                    assertThat(analysis.getAction()).startsWith("Correct the @DistributedLock on Invoices.send");
                });
    }

    /** A key with a typo: the parameter is invoiceId. */
    public static class Invoices {
        @DistributedLock(key = "#invoiceid")
        public void send(String invoiceId) {
        }
    }

    @Test
    void springBootFindsTheAnalyzer() throws IOException {
        try (InputStream in = getClass().getResourceAsStream("/META-INF/spring.factories")) {
            assertThat(in).isNotNull();
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8))
                    .contains(InvalidLockAnnotationFailureAnalyzer.class.getName());
        }
    }
}

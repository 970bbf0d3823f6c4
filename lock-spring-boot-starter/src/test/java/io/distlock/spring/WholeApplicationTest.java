package io.distlock.spring;

import io.distlock.test.RedisExtension;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application as a user writes it: every auto-configuration on the classpath (found through
 * Spring Boot's imports files, not listed by the test), Redis from {@code spring.data.redis.*},
 * actuator and Micrometer. On both Spring Boot generations it starts without warnings, has the
 * {@code distlock} health indicator, and counts a locked call in the {@code distlock.*} meters.
 */
@Timeout(60)
@ExtendWith(OutputCaptureExtension.class)
class WholeApplicationTest {

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {
        @Bean
        Invoices invoices() {
            return new Invoices();
        }
    }

    /** One locked method. */
    public static class Invoices {
        @DistributedLock(key = "#id")
        public String send(String id) {
            return "sent " + id;
        }
    }

    @Test
    void startsWithoutWarningsShowsHealthAndMeasuresALockedCall(CapturedOutput output) {
        String startingThread = Thread.currentThread().getName();
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(Application.class)
                .web(WebApplicationType.NONE)
                .properties("spring.main.banner-mode=off",
                        "spring.data.redis.host=" + redis.server().host(),
                        "spring.data.redis.port=" + redis.server().port())
                .run()) {

            assertThat(context.getBean(Invoices.class).send("i-1")).isEqualTo("sent i-1");

            assertThat(BootGeneration.health(context).status()).isEqualTo("UP");
            assertThat(context.getBean(MeterRegistry.class).get("distlock.acquire").tag("name", "Invoices.send")
                    .tag("result", "acquired").timer().count()).as("the locked call, measured").isEqualTo(1);
        }
        // The output of the whole test JVM is captured: keep what this application logged, from the
        // starting thread, about distlock, or about this test's Redis (Lettuce's own threads).
        List<String> log = output.getAll().lines()
                .filter(line -> line.contains("[" + startingThread + "]") || line.contains("distlock")
                        || line.contains(":" + redis.server().port()))
                .toList();
        assertThat(log).as("the application's log").anyMatch(line -> line.contains("Started"))
                .noneMatch(line -> line.contains("not eligible for getting processed"))
                .noneMatch(line -> line.matches("(?i).*\\bwarn(ing)?\\b.*"));
    }
}

package io.distlock.spring;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.distlock.test.RedisExtension;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import java.util.List;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application as a user writes it: every auto-configuration on the classpath (found through
 * Spring Boot's imports files, not listed by the test), Redis from {@code spring.data.redis.*},
 * Spring Boot's logging, actuator and Prometheus. On both Spring Boot generations it starts
 * without warnings, its health endpoint shows the {@code distlock} component, and a locked call
 * shows in the {@code distlock_*} series.
 */
@Timeout(60)
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

    /** The same application with an annotation that cannot work, which distlock warns about. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class ApplicationWithAFinalLockedMethod {
        @Bean
        Refunds refunds() {
            return new Refunds();
        }
    }

    /** A locked method Spring AOP cannot intercept. */
    public static class Refunds {
        @DistributedLock(key = "#id")
        public final String refund(String id) {
            return "refunded " + id;
        }
    }

    @Test
    void startsWithoutWarningsShowsHealthAndMeasuresALockedCall() {
        List<String> warnings = warningsWhileRunning(Application.class, context -> {
            assertThat(context.getBean(Invoices.class).send("i-1")).isEqualTo("sent i-1");

            assertThat(BootGeneration.healthEndpointStatus(context, "distlock")).isEqualTo("UP");
            assertThat(context.getBean(PrometheusMeterRegistry.class).scrape()).as("the locked call, measured")
                    .contains("distlock_acquire_seconds_count{error=\"none\",name=\"Invoices.send\","
                            + "result=\"acquired\",type=\"reentrant\"} 1");
        });

        assertThat(warnings).isEmpty();
    }

    @Test
    void distlocksOwnWarningsReachTheApplicationsLog() {
        List<String> warnings = warningsWhileRunning(ApplicationWithAFinalLockedMethod.class, context -> { });

        assertThat(warnings).anyMatch(warning -> warning.contains("Refunds.refund has no effect"));
    }

    /**
     * Runs the application and collects the warnings (and worse) it logged: those of distlock's
     * loggers, of the thread that started it, or about this test's Redis. Other tests' clients in
     * this JVM may log too; they are left out.
     */
    private static List<String> warningsWhileRunning(Class<?> application,
                                                     Consumer<ConfigurableApplicationContext> use) {
        String startingThread = Thread.currentThread().getName();
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        // Spring Boot sets logging up anew as the application starts: listen from then on.
        ApplicationListener<ApplicationEnvironmentPreparedEvent> listen = event -> {
            log.start();
            ((Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME)).addAppender(log);
        };
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(application)
                .web(WebApplicationType.NONE)
                .listeners(listen)
                .properties("spring.main.banner-mode=off",
                        // Actuator's endpoints over JMX, since this application has no web server.
                        "spring.jmx.enabled=true", "spring.jmx.unique-names=true",
                        "management.endpoints.jmx.exposure.include=health",
                        "spring.data.redis.host=" + redis.server().host(),
                        "spring.data.redis.port=" + redis.server().port())
                .run()) {
            use.accept(context);
        } finally {
            ((Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME)).detachAppender(log);
        }
        assertThat(log.list).as("the application's log")
                .anyMatch(event -> event.getFormattedMessage().startsWith("Started"));
        return log.list.stream()
                .filter(event -> event.getLevel().isGreaterOrEqual(Level.WARN))
                .filter(event -> event.getLoggerName().startsWith("io.distlock")
                        || event.getThreadName().equals(startingThread)
                        || event.getFormattedMessage().contains(":" + redis.server().port()))
                .map(event -> event.getLevel() + " " + event.getLoggerName() + ": " + event.getFormattedMessage())
                .toList();
    }
}

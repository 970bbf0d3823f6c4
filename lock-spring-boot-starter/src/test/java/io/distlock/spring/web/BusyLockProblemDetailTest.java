package io.distlock.spring.web;

import io.distlock.core.LockAcquisitionException;
import io.distlock.core.LockClient;
import io.distlock.core.LockTemplate;
import io.distlock.core.RedisLock;
import io.distlock.spring.DistributedLock;
import io.distlock.spring.autoconfigure.DistLockAutoConfiguration;
import io.distlock.test.RedisExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.WebApplicationContext;
import org.springframework.web.reactive.config.EnableWebFlux;
import org.springframework.web.servlet.config.annotation.EnableWebMvc;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

/**
 * A controller whose {@code @DistributedLock} method finds the lock busy answers with a
 * ProblemDetail, 409 by default, naming the lock's static name but never the key's value (the
 * {@code instance} Spring adds is the request's own path), on Spring
 * MVC and on WebFlux; an application's own {@code @ExceptionHandler} still wins.
 */
@Timeout(60)
class BusyLockProblemDetailTest {

    /** The key's value, which must never reach the answer. */
    static final String SECRET = "customer-4711";

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    final WebApplicationContextRunner mvc = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, DistLockAutoConfiguration.class,
                    DistLockWebAutoConfiguration.class))
            .withPropertyValues("distlock.redis.url=" + redis.server().uri())
            .withUserConfiguration(MvcApplication.class);

    @Test
    void aBusyLockAnswersAConflictProblemDetailWithoutTheKey() {
        mvc.run(context -> {
            MvcResult answer = whileHeld(context, () -> mockMvc(context).perform(post("/invoices/" + SECRET))
                    .andReturn());

            assertThat(answer.getResponse().getStatus()).isEqualTo(409);
            assertThat(answer.getResponse().getContentType()).isEqualTo(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
            String body = answer.getResponse().getContentAsString();
            assertThat(body).contains("\"title\":\"Lock busy\"", "\"lock\":\"invoices\"", "\"status\":409",
                    "\"instance\":\"/invoices/" + SECRET + "\"");
            assertThat(withoutInstance(body)).as("the lock is named by its static name only").doesNotContain(SECRET);
            assertThat(answer.getResponse().getHeader("Retry-After")).isNull();
        });
    }

    @Test
    void theStatusAndRetryAfterAreSettings() {
        mvc.withPropertyValues("distlock.web.busy-status=503", "distlock.web.retry-after=1500ms").run(context -> {
            MvcResult answer = whileHeld(context, () -> mockMvc(context).perform(post("/invoices/" + SECRET))
                    .andReturn());

            assertThat(answer.getResponse().getStatus()).isEqualTo(503);
            assertThat(answer.getResponse().getHeader("Retry-After")).isEqualTo("2");
        });
    }

    @Test
    void theApplicationsOwnExceptionHandlerWins() {
        mvc.withUserConfiguration(OwnHandler.class).run(context -> {
            MvcResult answer = whileHeld(context, () -> mockMvc(context).perform(post("/invoices/" + SECRET))
                    .andReturn());

            assertThat(answer.getResponse().getStatus()).isEqualTo(429);
            assertThat(answer.getResponse().getContentAsString()).isEqualTo("later");
        });
    }

    @Test
    void aTemplateLockWithoutAKindIsNotNamedAtAll() {
        mvc.run(context -> {
            LockClient client = context.getBean(LockClient.class);
            RedisLock lock = client.getLock("invoice-" + SECRET);
            assertThat(lock.tryLockAsync(0, 0, TimeUnit.SECONDS, "another-instance").get(10, TimeUnit.SECONDS)).isTrue();
            try {
                LockAcquisitionException busy = catchThrowableOfType(LockAcquisitionException.class, () ->
                        new LockTemplate(client).run("invoice-" + SECRET, Duration.ZERO, null, () -> { }));
                assertThat(busy.getGroup()).as("all of the name may be a key").isNull();
                ResponseEntity<ProblemDetail> answer = context.getBean(LockBusyProblemDetails.class).busy(busy);
                assertThat(answer.getBody()).isNotNull();
                assertThat(String.valueOf(answer.getBody())).doesNotContain(SECRET);
                assertThat(answer.getStatusCode().value()).isEqualTo(409);
            } finally {
                lock.unlockAsync("another-instance").get(10, TimeUnit.SECONDS);
            }
        });
    }

    @Test
    void theWebSettingsAreCheckedAlsoWithALockClientOfTheApplication() {
        mvc.withBean(LockClient.class, () -> LockClient.builder().redisUri(redis.server().uri()).build())
                .withPropertyValues("distlock.web.retry-after=-5s")
                .run(context -> assertThat(context).hasFailed().getFailure().rootCause()
                        .hasMessageContaining("distlock.web.retry-after"));
    }

    @Test
    void aStatusThatIsNoErrorStopsStartupNamingTheProperty() {
        mvc.withPropertyValues("distlock.web.busy-status=200").run(context -> assertThat(context).hasFailed()
                .getFailure().rootCause().hasMessageContaining("distlock.web.busy-status")
                .hasMessageContaining("400 to 599"));
    }

    @Test
    void turnedOffTheExceptionIsLeftToSpring() {
        mvc.withPropertyValues("distlock.web.enabled=false").run(context ->
                assertThat(context).doesNotHaveBean(LockBusyProblemDetails.class));
    }

    @Test
    void aWebFluxControllerAnswersTheSame() {
        new ReactiveWebApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, DistLockAutoConfiguration.class,
                        DistLockWebAutoConfiguration.class))
                .withPropertyValues("distlock.redis.url=" + redis.server().uri())
                .withUserConfiguration(FluxApplication.class)
                .run(context -> {
                    String body = whileHeld(context, () -> WebTestClient.bindToApplicationContext(context).build()
                            .post().uri("/invoices/" + SECRET).exchange()
                            .expectStatus().isEqualTo(HttpStatus.CONFLICT)
                            .expectHeader().contentType(MediaType.APPLICATION_PROBLEM_JSON)
                            .expectBody(String.class).returnResult().getResponseBody());
                    assertThat(body).contains("\"lock\":\"invoices\"");
                    assertThat(withoutInstance(body)).doesNotContain(SECRET);
                });
    }

    /** What a test does while another holder has the invoice's lock. */
    interface WhileHeld<T> {
        T run() throws Exception;
    }

    private static <T> T whileHeld(ApplicationContext context, WhileHeld<T> action) throws Exception {
        RedisLock lock = context.getBean(LockClient.class).getLock("invoices:" + SECRET);
        assertThat(lock.tryLockAsync(0, 0, TimeUnit.SECONDS, "another-instance").get(10, TimeUnit.SECONDS)).isTrue();
        try {
            return action.run();
        } finally {
            lock.unlockAsync("another-instance").get(10, TimeUnit.SECONDS);
        }
    }

    /**
     * @return the answer without its {@code instance}, which Spring sets to the request's own path
     *         (RFC 9457): the caller's URL, not something the lock tells
     */
    private static String withoutInstance(String body) {
        return body.replaceAll("\"instance\":\"[^\"]*\",?", "");
    }

    private static MockMvc mockMvc(ApplicationContext context) {
        return MockMvcBuilders.webAppContextSetup((WebApplicationContext) context).build();
    }

    /** Sends invoices, one at a time per invoice across all instances. */
    public static class Invoices {
        @DistributedLock(name = "invoices", key = "#id", waitTime = "0s")
        public String send(String id) {
            return "sent " + id;
        }
    }

    @RestController
    static class InvoiceController {
        private final Invoices invoices;

        InvoiceController(Invoices invoices) {
            this.invoices = invoices;
        }

        @PostMapping("/invoices/{id}")
        String send(@PathVariable("id") String id) {
            return invoices.send(id);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Controllers {
        @Bean
        Invoices invoices() {
            return new Invoices();
        }

        @Bean
        InvoiceController invoiceController(Invoices invoices) {
            return new InvoiceController(invoices);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableWebMvc
    static class MvcApplication extends Controllers {
    }

    @Configuration(proxyBeanMethods = false)
    @EnableWebFlux
    static class FluxApplication extends Controllers {
    }

    @RestControllerAdvice
    static class OwnHandler {
        @ExceptionHandler(LockAcquisitionException.class)
        ResponseEntity<String> busy(LockAcquisitionException e) {
            return ResponseEntity.status(HttpStatus.TOO_MANY_REQUESTS).body("later");
        }
    }
}

package io.distlock.spring.metrics;

import io.distlock.core.LockClient;
import io.distlock.core.LockLostException;
import io.distlock.spring.BootGeneration;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.test.simple.SimpleSpan;
import io.micrometer.tracing.test.simple.SimpleTracer;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.distlock.test.Polling.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The meters of {@link DistLockMetricsTest}, in an application with Spring Boot's observation
 * registry and a tracer: the acquire and held timers then come from Boot's meter observation
 * handler, and every test there passes with the same counts, so nothing is counted twice. Beyond
 * them: the wait and the hold are spans under the caller's span, a hold in progress is a long
 * task timer, and a lost lease is the hold span's error.
 */
class ObservedLockMetricsTest extends DistLockMetricsTest {

    @Override
    ApplicationContextRunner application(ApplicationContextRunner base) {
        return base.withConfiguration(AutoConfigurations.of(BootGeneration.observationAutoConfigurations()))
                .withUserConfiguration(Tracing.class);
    }

    /** A tracer that keeps its spans, as micrometer-tracing's bridges would report them. */
    @Configuration(proxyBeanMethods = false)
    static class Tracing {
        @Bean
        SimpleTracer tracer() {
            return new SimpleTracer();
        }

        @Bean
        DefaultTracingObservationHandler tracingHandler(SimpleTracer tracer) {
            return new DefaultTracingObservationHandler(tracer);
        }
    }

    @Test
    void theWaitAndTheHoldAreSpansUnderTheCallersSpanAndTimedOnce() {
        runner.run(context -> {
            ObservationRegistry observations = context.getBean(ObservationRegistry.class);
            SimpleTracer tracer = context.getBean(SimpleTracer.class);
            Observation checkout = Observation.start("checkout", observations);
            try (Observation.Scope ignored = checkout.openScope()) {
                assertThat(context.getBean(Payments.class).quick("9")).isEqualTo("9");
            }
            checkout.stop();

            SimpleSpan caller = span(tracer, "checkout");
            for (String name : List.of("distlock.acquire", "distlock.held")) {
                assertThat(span(tracer, name)).as(name).satisfies(span -> {
                    assertThat(span.getTraceId()).isEqualTo(caller.getTraceId());
                    assertThat(span.getParentId()).isEqualTo(caller.getSpanId());
                    assertThat(span.getTags()).containsEntry("name", "orders.pay").containsEntry("type", "reentrant")
                            .containsEntry("lock", "orders.pay:9");
                    assertThat(span.getEndTimestamp()).isNotNull();
                });
            }
            assertThat(span(tracer, "distlock.acquire").getTags()).containsEntry("result", "acquired");

            MeterRegistry registry = context.getBean(MeterRegistry.class);
            for (String timer : List.of("distlock.acquire", "distlock.held")) {
                assertThat(registry.find(timer).timers()).as(timer + ": made once, by the observation handler")
                        .singleElement().satisfies(made -> {
                            assertThat(made.count()).isEqualTo(1);
                            assertThat(made.getId().getTag("error")).isEqualTo("none");
                        });
            }
        });
    }

    @Test
    void anApplicationsOwnClientWithoutTheRegistryIsTimedByTheBinderInstead() {
        runner.withBean(LockClient.class, () -> LockClient.builder().redisUri(redis.server().uri()).build(),
                definition -> definition.setDestroyMethodName("close")).run(context -> {
            assertThat(context.getBean(Payments.class).quick("4")).isEqualTo("4");

            assertThat(context.getBean(SimpleTracer.class).getSpans()).as("not observed").isEmpty();
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            assertThat(registry.find("distlock.acquire.active").longTaskTimers()).as("no observation").isEmpty();
            assertThat(registry.find("distlock.acquire").tag("result", "acquired").timers())
                    .as("made by the binder, once, tagged as the handler tags").singleElement().satisfies(made -> {
                        assertThat(made.count()).isEqualTo(1);
                        assertThat(made.getId().getTag("error")).isEqualTo("none");
                    });
        });
    }

    @Test
    void springBootsPropertySwitchesTheObservationsOff() {
        runner.withPropertyValues("management.observations.enable.distlock=false").run(context -> {
            assertThat(context.getBean(Payments.class).quick("3")).isEqualTo("3");
            assertThat(context.getBean(SimpleTracer.class).getSpans()).isEmpty();
            assertThat(context.getBean(MeterRegistry.class).find("distlock.acquire").meters()).isEmpty();
        });
    }

    @Test
    void aHoldInProgressIsALongTaskTimer() {
        runner.run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            PayingCall holder = payAndHold(context, "5");

            assertThat(heldNow(registry).activeTasks()).as("holds in progress").isEqualTo(1);
            assertThat(heldNow(registry).duration(TimeUnit.NANOSECONDS)).isPositive();

            holder.leave().countDown();
            assertThat(holder.result().get(10, TimeUnit.SECONDS)).isEqualTo("5");
            assertThat(heldNow(registry).activeTasks()).as("after the release").isZero();
            assertThat(registry.get("distlock.held").tag("name", "orders.pay").timer().count()).isEqualTo(1);
        });
    }

    @Test
    void aFailedRenewalShowsOnTheHoldsSpanAndInTheMeters() {
        // Renewed every 2 s, and a renewal gets 1 s to answer: a paused Redis fails one long before the lease ends.
        runner.withPropertyValues("distlock.watchdog.timeout=6s").run(context -> {
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            PayingCall holder = payAndHold(context, "8");

            redis.server().pause();
            try {
                // Counted by the observation's event, and by the binder from the engine's event.
                awaitTrue("a renewal fails", PATIENCE, () -> registry.find("distlock.held.renewal.failed")
                        .tag("name", "orders.pay").counters().stream().mapToDouble(c -> c.count()).sum() >= 1
                        && registry.get("distlock.watchdog.renewals").tag("name", "orders.pay")
                        .tag("result", "error").counter().count() >= 1);
            } finally {
                redis.server().resume();
            }

            holder.leave().countDown();
            assertThat(holder.result().get(10, TimeUnit.SECONDS)).isEqualTo("8");
            SimpleSpan held = span(context.getBean(SimpleTracer.class), "distlock.held");
            assertThat(held.getEvents()).extracting(Map.Entry::getValue)
                    .anyMatch(event -> event.startsWith("Lease renewal failed"));
            assertThat(held.getError()).as("the lease was kept").isNull();
        });
    }

    @Override
    void assertLossAlsoShown(ApplicationContext context) {
        MeterRegistry registry = context.getBean(MeterRegistry.class);
        assertThat(registry.get("distlock.held").tag("name", "orders.pay")
                .tag("error", LockLostException.class.getSimpleName()).timer().count())
                .as("the lost hold, timed with its error").isEqualTo(1);
        assertThat(heldNow(registry).activeTasks()).isZero();
        SimpleTracer tracer = context.getBean(SimpleTracer.class);
        awaitTrue("the hold's span ended", PATIENCE, () -> span(tracer, "distlock.held").getEndTimestamp() != null);
        assertThat(span(tracer, "distlock.held").getError()).isInstanceOf(LockLostException.class);
    }

    private static LongTaskTimer heldNow(MeterRegistry registry) {
        return registry.get("distlock.held.active").tag("name", "orders.pay").longTaskTimer();
    }

    /** @return the one span whose name starts with the observation's name */
    private static SimpleSpan span(SimpleTracer tracer, String observation) {
        return tracer.getSpans().stream().filter(span -> span.getName().startsWith(observation))
                .reduce((first, second) -> {
                    throw new AssertionError("more than one span of " + observation + ": " + tracer.getSpans());
                })
                .orElseThrow(() -> new AssertionError("no span of " + observation + ": " + tracer.getSpans()));
    }
}

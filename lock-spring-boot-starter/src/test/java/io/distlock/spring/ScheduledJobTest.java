package io.distlock.spring;

import io.distlock.spring.autoconfigure.DistLockAutoConfiguration;
import io.distlock.test.RedisExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static io.distlock.test.Polling.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code @Scheduled} job on two instances (two application contexts on one Redis), ticking far
 * more often than its minimum hold time: whichever instance comes first runs a tick, and no run,
 * on either instance, starts within the minimum hold time of the one before.
 */
@Timeout(60)
class ScheduledJobTest {

    private static final long MIN_HOLD_MILLIS = 1_000;
    /** Run starts are measured after acquiring, a little after the lock was taken. */
    private static final long MEASURING_SLACK_MILLIS = 50;

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    /** Every run of the job on either instance: when it started (System.nanoTime()) and where. */
    record Run(long startNanos, String instance) {
    }

    static final List<Run> RUNS = new CopyOnWriteArrayList<>();

    /** The job, as an application would write it. */
    public static class ReportJob {
        private final String instance;

        public ReportJob(String instance) {
            this.instance = instance;
        }

        @Scheduled(fixedRate = 100)
        @DistributedLock(name = "nightly-report", waitTime = "0s", onFailure = OnFailure.SKIP, minHoldTime = "1s")
        public void run() {
            RUNS.add(new Run(System.nanoTime(), instance));
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableScheduling
    static class Scheduling {
    }

    private ApplicationContextRunner instance(String name) {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, DistLockAutoConfiguration.class))
                .withUserConfiguration(Scheduling.class)
                .withBean(ReportJob.class, () -> new ReportJob(name))
                .withPropertyValues("distlock.redis.url=" + redis.server().uri());
    }

    @Test
    void eachTickRunsOnceAcrossInstancesAndNoRunStartsWithinTheMinimumHoldTime() {
        RUNS.clear();
        instance("a").run(a -> instance("b").run(b ->
                awaitTrue("four runs", Duration.ofSeconds(20), () -> RUNS.size() >= 4)));

        List<Run> runs = new ArrayList<>(RUNS);
        for (int i = 1; i < runs.size(); i++) {
            long gapMillis = TimeUnit.NANOSECONDS.toMillis(runs.get(i).startNanos() - runs.get(i - 1).startNanos());
            assertThat(gapMillis).as("gap before run %d of %s", i, runs)
                    .isGreaterThanOrEqualTo(MIN_HOLD_MILLIS - MEASURING_SLACK_MILLIS);
        }
    }
}

package io.distlock.spring;

import io.distlock.core.LockLostException;
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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * {@link LockContext#current()} tells a locked method about its lock; nested locked calls see
 * their own and re-enter locks their callers hold.
 */
@Timeout(60)
class LockContextTest {

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, DistLockAutoConfiguration.class))
            .withUserConfiguration(Services.class)
            .withPropertyValues("distlock.redis.url=" + redis.server().uri(), "distlock.watchdog.timeout=5s");

    static final AtomicReference<Boolean> LOST_BEFORE = new AtomicReference<>();
    static final AtomicReference<Boolean> LOST_AFTER = new AtomicReference<>();

    /** What a context showed at one moment. */
    record Seen(String name, List<String> lockNames, String holderId, Duration lease, boolean lost, boolean hasToken) {
        static Seen now() {
            LockContext context = LockContext.current();
            return new Seen(context.name(), context.lockNames(), context.holderId(), context.remainingLease(),
                    context.isLost(), context.fencingToken().isPresent());
        }
    }

    /** Inner locked calls, in another bean so they go through the proxy. */
    public static class Ledger {
        @DistributedLock(key = "#account", name = "ledger")
        public List<Seen> post(String account) {
            return List.of(Seen.now());
        }

        @DistributedLock(key = "#account", name = "brief", leaseTime = "500us")
        public Seen brief(String account) {
            return Seen.now();
        }
    }

    /** Outer locked calls. */
    public static class Accounts {
        private final Ledger ledger;

        public Accounts(Ledger ledger) {
            this.ledger = ledger;
        }

        @DistributedLock(key = "#account", name = "ledger", leaseTime = "20s")
        public List<Seen> transfer(String account, String other) {
            List<Seen> seen = new ArrayList<>();
            seen.add(Seen.now());
            seen.addAll(ledger.post(account));  // same lock: re-entered
            seen.addAll(ledger.post(other));    // another lock: added
            seen.add(Seen.now());
            return seen;
        }

        @DistributedLock(key = "#account", name = "ledger")
        public void loseLease(String account) {
            LOST_BEFORE.set(LockContext.current().isLost());
            redis.server().command("DEL", "distlock:{ledger:" + account + "}");
            LOST_AFTER.set(LockContext.current().isLost());
        }

        @DistributedLock(key = "#account", name = "ledger")
        public CompletionStage<Seen> later(String account) {
            return CompletableFuture.completedFuture(Seen.now());
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Services {
        @Bean
        Ledger ledger() {
            return new Ledger();
        }

        @Bean
        Accounts accounts(Ledger ledger) {
            return new Accounts(ledger);
        }
    }

    @Test
    void showsTheCurrentLockAndRestoresTheOuterOneAfterANestedCall() {
        runner.run(context -> {
            List<Seen> seen = context.getBean(Accounts.class).transfer("a", "b");
            Seen outer = seen.get(0);
            assertThat(outer.name()).isEqualTo("ledger");
            assertThat(outer.lockNames()).containsExactly("ledger:a");
            assertThat(outer.lease()).isBetween(Duration.ofSeconds(15), Duration.ofSeconds(20));
            assertThat(outer.lost()).isFalse();
            assertThat(outer.hasToken()).as("reentrant locks issue no token").isFalse();

            Seen reentered = seen.get(1);
            assertThat(reentered.lockNames()).containsExactly("ledger:a");
            assertThat(reentered.holderId()).isEqualTo(outer.holderId());

            Seen added = seen.get(2);
            assertThat(added.lockNames()).containsExactly("ledger:b");
            assertThat(added.lease()).as("watchdog lease").isBetween(Duration.ofSeconds(1), Duration.ofSeconds(5));

            assertThat(seen.get(3)).isEqualTo(new Seen("ledger", List.of("ledger:a"), outer.holderId(),
                    seen.get(3).lease(), false, false));
            assertThat(LockContext.find()).isEmpty();
            assertThat(redis.server().commandString("EXISTS", "distlock:{ledger:a}")).isEqualTo("0");
        });
    }

    @Test
    void reportsALostLeaseAndTheCallerLearnsItToo() {
        runner.run(context -> {
            assertThatThrownBy(() -> context.getBean(Accounts.class).loseLease("c"))
                    .isInstanceOf(LockLostException.class);
            assertThat(LOST_BEFORE.get()).isFalse();
            assertThat(LOST_AFTER.get()).isTrue();
        });
    }

    @Test
    void anAsyncMethodSeesItsOwnHolderWhileItBuildsItsResult() {
        runner.run(context -> {
            Seen seen = context.getBean(Accounts.class).later("d").toCompletableFuture().get(10, TimeUnit.SECONDS);
            assertThat(seen.lockNames()).containsExactly("ledger:d");
            assertThat(seen.holderId()).contains(":op-");
        });
    }

    @Test
    void aLeaseShorterThanAMillisecondIsALeaseNotTheWatchdog() {
        // Duration.toMillis() made it 0, which the lock took for the watchdog: renewed until the call ended.
        runner.run(context -> {
            Throwable failure = catchThrowable(() -> assertThat(context.getBean(Ledger.class).brief("e").lease())
                    .as("a lease of about a millisecond, not the watchdog's 5 s").isLessThan(Duration.ofSeconds(1)));
            if (failure != null) {
                assertThat(failure).as("the lease ended before the release").isInstanceOf(LockLostException.class);
            }
        });
    }

    @Test
    void outsideALockedMethodThereIsNone() {
        assertThat(LockContext.find()).isEmpty();
        assertThatThrownBy(LockContext::current).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("outside a @DistributedLock method");
    }
}

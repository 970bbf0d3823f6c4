package io.distlock.spring;

import io.distlock.core.LockClient;
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
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseBuilder;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseType;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import javax.sql.DataSource;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.distlock.test.Polling.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The lock wraps the transaction: other holders never see the lock free before the data is
 * committed, whether the locked method owns its transaction or joined one begun further out.
 * Runs on a real transactional H2 DataSource.
 */
@Timeout(60)
class TransactionalLockTest {

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, DistLockAutoConfiguration.class))
            .withUserConfiguration(Database.class)
            .withPropertyValues("distlock.redis.url=" + redis.server().uri());

    /** Records, at each moment of interest, whether the lock key existed in Redis. */
    static final List<String> SEEN = new CopyOnWriteArrayList<>();

    static void see(String moment, String sku) {
        SEEN.add(moment + "=" + redis.server().commandString("EXISTS", "distlock:{Stock.reserve:" + sku + "}"));
    }

    /** Locked and transactional: the lock is taken first and released after the commit. */
    public static class Stock {
        private final JdbcTemplate jdbc;

        public Stock(JdbcTemplate jdbc) {
            this.jdbc = jdbc;
        }

        @DistributedLock(key = "#sku")
        @Transactional
        public void reserve(String sku) {
            see("inTransaction=" + TransactionSynchronizationManager.isActualTransactionActive(), sku);
            jdbc.update("update stock set quantity = quantity - 1 where sku = ?", sku);
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCommit() {
                    see("afterCommit", sku);
                }
            });
        }

        public int quantity(String sku) {
            return jdbc.queryForObject("select quantity from stock where sku = ?", Integer.class, sku);
        }
    }

    /** Begins the transaction that {@link Stock#reserve} joins. */
    public static class Checkout {
        private final Stock stock;

        public Checkout(Stock stock) {
            this.stock = stock;
        }

        @Transactional
        public void checkout(String sku, boolean fail) {
            stock.reserve(sku);
            see("afterReserveReturned", sku);
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void beforeCompletion() {
                    see("outerBeforeCompletion", sku);
                }

                @Override
                public void afterCommit() {
                    see("outerAfterCommit", sku);
                }
            });
            if (fail) {
                throw new IllegalStateException("payment declined");
            }
        }
    }

    /** Reserves with {@code onLost = CANCEL}, inside a transaction begun further out. */
    public static class GuardedStock {
        private final JdbcTemplate jdbc;

        public GuardedStock(JdbcTemplate jdbc) {
            this.jdbc = jdbc;
        }

        @DistributedLock(key = "#sku", onLost = OnLost.CANCEL)
        @Transactional
        public void reserve(String sku) {
            jdbc.update("update stock set quantity = quantity - 1 where sku = ?", sku);
        }
    }

    /** Begins the transaction, reserves, then loses the lock before it commits. */
    public static class SlowCheckout {
        private final GuardedStock stock;
        private final LockClient client;

        public SlowCheckout(GuardedStock stock, LockClient client) {
            this.stock = stock;
            this.client = client;
        }

        @Transactional
        public void checkout(String sku) {
            stock.reserve(sku);
            try (LockClient other = LockClient.builder().redisUri(redis.server().uri()).build()) {
                assertThat(other.getLock("GuardedStock.reserve:" + sku).forceUnlock()).isTrue();
            }
            awaitTrue("this instance found its lease lost", Duration.ofSeconds(10), () -> client.locks().isEmpty());
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableTransactionManagement
    static class Database {
        @Bean(destroyMethod = "shutdown")
        org.springframework.jdbc.datasource.embedded.EmbeddedDatabase dataSource() {
            return new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2).generateUniqueName(true).build();
        }

        @Bean
        PlatformTransactionManager transactionManager(DataSource dataSource) {
            return new DataSourceTransactionManager(dataSource);
        }

        @Bean
        JdbcTemplate jdbcTemplate(DataSource dataSource) {
            JdbcTemplate jdbc = new JdbcTemplate(dataSource);
            jdbc.execute("create table stock (sku varchar(20) primary key, quantity int)");
            jdbc.update("insert into stock values ('apple', 10)");
            return jdbc;
        }

        @Bean
        Stock stock(JdbcTemplate jdbc) {
            return new Stock(jdbc);
        }

        @Bean
        Checkout checkout(Stock stock) {
            return new Checkout(stock);
        }

        @Bean
        GuardedStock guardedStock(JdbcTemplate jdbc) {
            return new GuardedStock(jdbc);
        }

        @Bean
        SlowCheckout slowCheckout(GuardedStock stock, LockClient client) {
            return new SlowCheckout(stock, client);
        }
    }

    @Test
    void theLockIsTakenBeforeTheTransactionBeginsAndStillHeldAtCommit() {
        runner.run(context -> {
            SEEN.clear();
            Stock stock = context.getBean(Stock.class);
            stock.reserve("apple");
            assertThat(SEEN).containsExactly("inTransaction=true=1", "afterCommit=1");
            assertThat(stock.quantity("apple")).isEqualTo(9);
            assertThat(redis.server().commandString("EXISTS", "distlock:{Stock.reserve:apple}")).isEqualTo("0");
        });
    }

    @Test
    void aMethodThatJoinedAnOuterTransactionKeepsTheLockUntilThatOneCompletes() {
        runner.run(context -> {
            SEEN.clear();
            context.getBean(Checkout.class).checkout("apple", false);
            assertThat(SEEN).containsExactly("inTransaction=true=1", "afterReserveReturned=1",
                    "outerBeforeCompletion=1", "afterCommit=1", "outerAfterCommit=1");
            assertThat(context.getBean(Stock.class).quantity("apple")).isEqualTo(9);
            assertThat(redis.server().commandString("EXISTS", "distlock:{Stock.reserve:apple}")).isEqualTo("0");
        });
    }

    @Test
    void aRolledBackOuterTransactionAlsoReleasesTheLock() {
        runner.run(context -> {
            SEEN.clear();
            assertThatThrownBy(() -> context.getBean(Checkout.class).checkout("apple", true))
                    .hasMessage("payment declined");
            assertThat(SEEN).containsExactly("inTransaction=true=1", "afterReserveReturned=1",
                    "outerBeforeCompletion=1");
            assertThat(context.getBean(Stock.class).quantity("apple")).isEqualTo(10);
            assertThat(redis.server().commandString("EXISTS", "distlock:{Stock.reserve:apple}")).isEqualTo("0");
        });
    }

    /**
     * The locked method returned inside a transaction begun further out, and its lock was lost
     * before that transaction committed: with {@code onLost = CANCEL} the commit is refused.
     */
    @Test
    void aLeaseLostBeforeTheOuterTransactionCommitsRollsItBack() {
        runner.withPropertyValues("distlock.watchdog.timeout=1s").run(context -> {
            assertThatThrownBy(() -> context.getBean(SlowCheckout.class).checkout("apple"))
                    .isInstanceOf(LockLostException.class).hasMessageContaining("onLost = CANCEL");
            assertThat(context.getBean(Stock.class).quantity("apple")).as("rolled back").isEqualTo(10);
        });
    }
}

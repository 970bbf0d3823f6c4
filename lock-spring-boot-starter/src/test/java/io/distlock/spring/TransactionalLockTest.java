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
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

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
}

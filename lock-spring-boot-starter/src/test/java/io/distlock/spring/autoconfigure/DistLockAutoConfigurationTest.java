package io.distlock.spring.autoconfigure;

import io.distlock.core.KeysLeft;
import io.distlock.core.LockAcquisitionException;
import io.distlock.core.LockClient;
import io.distlock.core.LockException;
import io.distlock.core.LockTemplate;
import io.distlock.core.RedisLock;
import io.distlock.spring.DistributedLock;
import io.distlock.spring.aop.DistributedLockAdvisor;
import io.distlock.spring.aop.LockAdviceSettings;
import io.distlock.spring.internal.CancelledCalls;
import io.distlock.test.RedisCluster;
import io.distlock.test.RedisExtension;
import io.distlock.test.RedisSentinel;
import io.distlock.test.RedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@Timeout(60)
class DistLockAutoConfigurationTest {

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DistLockAutoConfiguration.class));

    @Test
    void createsAWorkingClientAndTemplateFromDistlockProperties() {
        runner.withPropertyValues("distlock.redis.url=" + redis.server().uri(), "distlock.key-prefix=app:",
                        "distlock.wait-time=250ms", "distlock.watchdog.timeout=10s")
                .run(context -> {
                    assertThat(context).hasSingleBean(LockClient.class).hasSingleBean(LockTemplate.class);
                    LockClient client = context.getBean(LockClient.class);
                    assertThat(client.keyPrefix()).isEqualTo("app:");
                    assertThat(client.watchdogTimeout()).isEqualTo(Duration.ofSeconds(10));
                    String result = context.getBean(LockTemplate.class).execute("order:42", null, null,
                            () -> redis.server().commandString("EXISTS", "app:{order:42}"));
                    assertThat(result).isEqualTo("1");
                });
    }

    @Test
    void closesTheClientWithTheContext() {
        LockClient[] client = new LockClient[1];
        runner.withPropertyValues("distlock.redis.url=" + redis.server().uri())
                .run(context -> client[0] = context.getBean(LockClient.class));
        assertThat(client[0].isClosed()).isTrue();
    }

    @Test
    void fallsBackToSpringDataRedisSettings() {
        runner.withPropertyValues("spring.data.redis.host=127.0.0.1",
                        "spring.data.redis.port=" + redis.server().port())
                .run(context -> {
                    RedisLock lock = context.getBean(LockClient.class).getLock("fallback");
                    lock.lock();
                    assertThat(redis.server().commandString("EXISTS", "distlock:{fallback}")).isEqualTo("1");
                    lock.unlock();
                });
    }

    @Test
    void distlockEnabledFalseTurnsEverythingOff() {
        runner.withPropertyValues("distlock.enabled=false", "distlock.redis.url=redis://nowhere.invalid:1")
                .run(context -> assertThat(context).hasNotFailed()
                        .doesNotHaveBean(LockClient.class).doesNotHaveBean(LockTemplate.class));
    }

    @Test
    void applicationBeansWin() {
        runner.withUserConfiguration(OwnTemplate.class)
                .withPropertyValues("distlock.redis.url=" + redis.server().uri())
                .run(context -> assertThat(context.getBean(LockTemplate.class))
                        .isSameAs(context.getBean(OwnTemplate.class).template));
    }

    @Test
    void customizersAdjustEveryClientAfterThePropertiesInTheirOrder() {
        runner.withUserConfiguration(Customizers.class)
                .withPropertyValues("distlock.redis.url=" + redis.server().uri(), "distlock.key-prefix=app:",
                        "distlock.watchdog.timeout=10s", "distlock.redlock.nodes=" + redis.server().uri())
                .run(context -> {
                    List<LockClient> clients = new ArrayList<>(context.getBean(RedLockNodes.class).clients());
                    clients.add(context.getBean(LockClient.class));
                    assertThat(clients).hasSize(2).allSatisfy(client -> {
                        assertThat(client.keyPrefix()).isEqualTo("second:");
                        assertThat(client.watchdogTimeout()).isEqualTo(Duration.ofSeconds(10));
                    });
                    RedisLock onMaster = context.getBean(RedLockNodes.class).clients().get(0).getLock("node");
                    onMaster.lock();
                    assertThat(redis.server().commandString("EXISTS", "second:{node}")).isEqualTo("1");
                    onMaster.unlock();
                });
    }

    @Test
    void anApplicationsOwnAdvisorReplacesTheStartersAndLocksTheMethods() {
        runner.withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class))
                .withUserConfiguration(OwnAdvisor.class)
                .withPropertyValues("distlock.redis.url=" + redis.server().uri(), "distlock.wait-time=30s")
                .run(context -> {
                    assertThat(context).hasSingleBean(DistributedLockAdvisor.class);
                    assertThat(context.getBean(DistributedLockAdvisor.class).getOrder()).isEqualTo(OwnAdvisor.ORDER);
                    Reports reports = context.getBean(Reports.class);
                    assertThat(reports.render("r-1")).isEqualTo("rendered r-1");
                    RedisLock held = context.getBean(LockClient.class).getLock("Reports.render:r-1");
                    CompletableFuture.runAsync(held::lock).get(20, TimeUnit.SECONDS); // by another thread
                    try {
                        long start = System.nanoTime();
                        assertThatThrownBy(() -> reports.render("r-1"))
                                .isInstanceOf(LockAcquisitionException.class);
                        assertThat(Duration.ofNanos(System.nanoTime() - start))
                                .as("held elsewhere: the own advisor's default wait (none) applies, not distlock.wait-time")
                                .isLessThan(Duration.ofSeconds(15));
                    } finally {
                        held.forceUnlock();
                    }
                });
    }

    @Test
    void wrongSettingsFailStartupNamingTheProperty() {
        String url = "distlock.redis.url=" + redis.server().uri();
        assertStartupFails("distlock.key-prefix", "braces", url, "distlock.key-prefix=app:{x}:");
        assertStartupFails("distlock.wait-time", "negative", url, "distlock.wait-time=-1s");
        assertStartupFails("distlock.lease-time", "negative", url, "distlock.lease-time=-5ms");
        assertStartupFails("distlock.watchdog.timeout", "'10ms' is shorter than 100ms", url,
                "distlock.watchdog.timeout=10ms");
        assertStartupFails("distlock.redis.timeout", "not positive", url, "distlock.redis.timeout=0s");
        assertStartupFails("distlock.redis.database", "negative", url, "distlock.redis.database=-1");
        assertStartupFails("distlock.redis.url", "not a Redis URL", "distlock.redis.url=http://u:hunter2@host:1");
        assertStartupFails("distlock.redis.url", "not a Redis URL", "distlock.redis.url=redis://:hunter2%zz@host:1");
        assertStartupFails("distlock.redlock.nodes[0]", "not a Redis URL", url,
                "distlock.redlock.nodes=redis://:hunter2%zz@host:1");
        assertStartupFails("distlock.redis.url", "more than one", url, "distlock.redis.sentinel.master=mymaster");
        assertStartupFails("distlock.redis.sentinel.nodes", "no Sentinel node",
                "distlock.redis.sentinel.master=mymaster");
        assertStartupFails("distlock.redis.sentinel.nodes", "host:port",
                "distlock.redis.sentinel.master=mymaster", "distlock.redis.sentinel.nodes=localhost:x");
        assertStartupFails("distlock.redis.cluster.nodes", "host:port", "distlock.redis.cluster.nodes=localhost:x");
        assertStartupFails("distlock.redis.database", "only database 0",
                "distlock.redis.cluster.nodes=localhost:7000", "distlock.redis.database=2");
        assertStartupFails("distlock.replica-ack.replicas", "negative", url, "distlock.replica-ack.replicas=-1");
        assertStartupFails("distlock.replica-ack.timeout", "'5000ms' is not shorter than the command timeout", url,
                "distlock.replica-ack.replicas=1", "distlock.replica-ack.timeout=5s");
        assertStartupFails("distlock.replica-ack.timeout", "'0ms' is not positive", url,
                "distlock.replica-ack.replicas=1", "distlock.replica-ack.timeout=0s");
    }

    @Test
    void clusterNodesConnectToARedisCluster() {
        try (RedisCluster cluster = RedisCluster.start(3)) {
            for (String nodes : List.of("distlock.redis.cluster.nodes=" + String.join(",", cluster.hostsAndPorts()),
                    "spring.data.redis.cluster.nodes=" + cluster.hostsAndPorts().get(1))) {
                runner.withPropertyValues(nodes).run(context -> {
                    assertThat(context).hasNotFailed();
                    String result = context.getBean(LockTemplate.class).execute("order:42", null, null, () -> {
                        long held = cluster.nodes().stream()
                                .filter(node -> !KeysLeft.matching(node, "distlock:{order:42}").isEmpty())
                                .count();
                        return "held on " + held + " node";
                    });
                    assertThat(result).isEqualTo("held on 1 node");
                });
            }
        }
    }

    @Test
    void sentinelPropertiesFindTheMasterAndReplicaAcksConfirmEachAcquisition() {
        try (RedisSentinel sentinel = RedisSentinel.start(1, 3)) {
            runner.withPropertyValues("distlock.redis.sentinel.master=" + RedisSentinel.MASTER_NAME,
                            "distlock.redis.sentinel.nodes=" + String.join(",", sentinel.sentinelHostsAndPorts()),
                            "distlock.replica-ack.replicas=1", "distlock.replica-ack.timeout=2s")
                    .run(context -> {
                        assertThat(context).hasNotFailed();
                        LockTemplate template = context.getBean(LockTemplate.class);
                        RedisServer replica = sentinel.replicas().get(0);
                        assertThat(template.execute("order:42", null, null,
                                () -> replica.commandString("EXISTS", "distlock:{order:42}")))
                                .as("the replica has the lock when the method runs").isEqualTo("1");
                        replica.pause();
                        try {
                            assertThatThrownBy(() -> template.execute("order:43", null, null, () -> "ran"))
                                    .isInstanceOf(LockException.class).hasMessageContaining("replicas acknowledged");
                        } finally {
                            replica.resume();
                        }
                    });
        }
    }

    @Test
    void anUnreachableRedisRequiredAtStartupFailsStartupWithoutShowingThePassword() {
        runner.withPropertyValues("distlock.redis.url=redis://:hunter2@127.0.0.1:1", "distlock.redis.timeout=1s",
                        "distlock.redis.required-at-startup=true")
                .run(context -> {
                    assertThat(context).hasFailed();
                    StringWriter trace = new StringWriter();
                    context.getStartupFailure().printStackTrace(new PrintWriter(trace));
                    assertThat(trace.toString())
                            .contains(LockException.class.getName()
                                    + ": Could not connect to Redis at redis://***@127.0.0.1:1")
                            .contains("reachable")
                            .doesNotContain("hunter2");
                });
    }

    @Test
    void propertiesNeverPrintThePassword() {
        DistLockProperties properties = new DistLockProperties();
        properties.getRedis().setPassword("hunter2");
        assertThat(properties.getRedis().toString()).doesNotContain("hunter2").contains("***");
    }

    private void assertStartupFails(String property, String problem, String... properties) {
        runner.withPropertyValues(properties).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause()
                    .isInstanceOf(InvalidLockPropertyException.class)
                    .hasMessageContaining(property)
                    .hasMessageContaining(problem)
                    .hasMessageNotContaining("hunter2");
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnAdvisor {

        static final int ORDER = 42;

        @Bean
        @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
        static DistributedLockAdvisor ownAdvisor(Environment environment, BeanFactory beanFactory,
                                                 ObjectProvider<LockClient> client) {
            return new DistributedLockAdvisor(new LockAdviceSettings(Duration.ZERO, null, false, ORDER),
                    environment, beanFactory, client::getObject, List::of, () -> CancelledCalls.NONE);
        }

        @Bean
        Reports reports() {
            return new Reports();
        }
    }

    /** A locked method with the advisor's default wait. */
    public static class Reports {
        @DistributedLock(key = "#id")
        public String render(String id) {
            return "rendered " + id;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Customizers {

        @Bean
        @Order(2)
        LockClientBuilderCustomizer second() {
            return builder -> builder.keyPrefix("second:");
        }

        @Bean
        @Order(1)
        LockClientBuilderCustomizer first() {
            return builder -> builder.keyPrefix("first:");
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnTemplate {

        final LockTemplate template = new LockTemplate(LockClient.builder()
                .redisUri(redis.server().uri()).build());

        @Bean
        LockTemplate myTemplate() {
            return template;
        }
    }
}

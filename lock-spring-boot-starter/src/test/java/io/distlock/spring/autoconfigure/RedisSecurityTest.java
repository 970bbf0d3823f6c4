package io.distlock.spring.autoconfigure;

import io.distlock.core.LockClient;
import io.distlock.core.LockException;
import io.distlock.core.LockTemplate;
import io.distlock.spring.BootGeneration;
import io.distlock.spring.HealthReading;
import io.distlock.test.FailureMessages;
import io.distlock.test.RedisExtension;
import io.distlock.test.RedisServer;
import io.distlock.test.RedisServerOptions;
import io.distlock.test.TestCertificates;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.env.StandardEnvironment;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * ACL user + password + TLS through properties, against a TLS-only Redis whose certificate is
 * signed by a CA the test generates and which admits only the ACL user; and that the password
 * shows nowhere: failure messages, logs, {@code toString()}, health details.
 */
@Timeout(60)
@ExtendWith(OutputCaptureExtension.class)
class RedisSecurityTest {

    private static final String USER = "alice";
    private static final String PASSWORD = "Acl-Pass-4711";
    private static final String WRONG_PASSWORD = "Wrong-Pass-0815";
    private static final TestCertificates CERTIFICATES = TestCertificates.shared();

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single(RedisServerOptions.defaults()
            .withTls(CERTIFICATES).withAclUser(USER, PASSWORD));

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class, DistLockAutoConfiguration.class,
                    BootGeneration.healthAutoConfiguration()))
            .withPropertyValues("distlock.redis.timeout=3s");

    /**
     * Lettuce and Spring log here (through logback, as in applications); the sample app checks a
     * full startup report.
     */
    @AfterEach
    void passwordsNeverReachTheLogs(CapturedOutput output) {
        assertThat(output.getAll()).doesNotContain(PASSWORD).doesNotContain(WRONG_PASSWORD);
    }

    @Test
    void aclUserPasswordAndSslBundleConnectAndLock() {
        runner.withPropertyValues(
                        "distlock.redis.url=redis://" + server().host() + ":" + server().port(), // the bundle implies TLS
                        "distlock.redis.username=" + USER,
                        "distlock.redis.password=" + PASSWORD,
                        "distlock.redis.ssl-bundle=redis",
                        trust("redis", CERTIFICATES.caCertificate()))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    LockTemplate template = context.getBean(LockTemplate.class);
                    String result = template.execute("tls-order", Duration.ofSeconds(2), null,
                            () -> String.valueOf(server().command("EXISTS", "distlock:{tls-order}")));
                    assertThat(result).isEqualTo("1");
                    assertThat(server().command("EXISTS", "distlock:{tls-order}")).isEqualTo(0L);
                });
    }

    @Test
    void redLockNodesOverTlsTrustTheSameBundle() {
        String node = "rediss://" + USER + ":" + PASSWORD + "@" + server().host() + ":" + server().port();
        runner.withPropertyValues(
                        "distlock.redis.url=" + node,
                        "distlock.redlock.nodes[0]=" + node,
                        "distlock.redis.ssl-bundle=redis",
                        trust("redis", CERTIFICATES.caCertificate()))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    List<LockClient> masters = context.getBean(RedLockNodes.class).clients();
                    assertThat(masters).hasSize(1);
                    assertThat(masters.get(0).ping()).isPositive();
                });
    }

    @Test
    void springDataRedisSettingsWithTheirSslBundleAreTheFallback() {
        runner.withPropertyValues(springDataRedisOverTls())
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    var lock = context.getBean(LockClient.class).getLock("fallback");
                    lock.lock();
                    lock.unlock();
                });
    }

    @Test
    void bootsRedisConnectionBringsItsSslBundle() {
        // On Spring Boot 3.5 the bundle comes with the server's description, not with the details.
        runner.withConfiguration(AutoConfigurations.of(BootGeneration.redisAutoConfiguration()))
                .withPropertyValues(springDataRedisOverTls())
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(BootGeneration.redisConnectionDetailsType());
                    assertThat(context.getBean(LockClient.class).ping()).isPositive();
                });
    }

    @Test
    void healthDetailsNeverShowThePasswordUpOrDown() {
        runner.withPropertyValues(
                        "distlock.redis.url=rediss://" + USER + ":" + PASSWORD + "@" + server().host() + ":"
                                + server().port(),
                        "distlock.redis.ssl-bundle=redis",
                        trust("redis", CERTIFICATES.caCertificate()))
                .run(context -> {
                    HealthReading up = BootGeneration.health(context);
                    assertThat(up.status()).isEqualTo("UP");
                    assertThat(up.toString()).doesNotContain(PASSWORD);

                    server().stop();
                    try {
                        HealthReading down = BootGeneration.health(context);
                        assertThat(down.status()).isEqualTo("DOWN");
                        assertThat(down.details()).containsKey("error");
                        assertThat(down.toString()).doesNotContain(PASSWORD);
                    } finally {
                        server().start();
                    }
                });
    }

    @Test
    void wrongPasswordFailsStartupClearlyWithoutShowingAnyPassword() {
        runner.withPropertyValues(
                        "distlock.redis.url=rediss://" + USER + ":" + WRONG_PASSWORD + "@" + server().host() + ":"
                                + server().port(),
                        "distlock.redis.ssl-bundle=redis",
                        trust("redis", CERTIFICATES.caCertificate()))
                .run(context -> {
                    assertThat(context).hasFailed();
                    Throwable failure = context.getStartupFailure();
                    assertThat(distlockFailure(failure)).isInstanceOf(LockException.class)
                            .hasMessageContaining("refused the credentials")
                            .hasMessageContaining("Check the username and password");
                    assertThat(FailureMessages.of(failure)).noneMatch(m -> m.contains(WRONG_PASSWORD) || m.contains(PASSWORD));
                });
    }

    @Test
    void wrongPasswordPropertyOverridingTheUrlIsNotShownEither() {
        runner.withPropertyValues(
                        "distlock.redis.url=redis://" + server().host() + ":" + server().port(),
                        "distlock.redis.username=" + USER,
                        "distlock.redis.password=" + WRONG_PASSWORD,
                        "distlock.redis.ssl-bundle=redis",
                        trust("redis", CERTIFICATES.caCertificate()))
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(distlockFailure(context.getStartupFailure())).hasMessageContaining("refused the credentials");
                    assertThat(FailureMessages.of(context.getStartupFailure())).noneMatch(m -> m.contains(WRONG_PASSWORD));
                });
    }

    @Test
    void certificateFromAnUntrustedCaFailsStartupSayingHowToTrustIt() {
        runner.withPropertyValues(
                        "distlock.redis.url=rediss://" + server().host() + ":" + server().port(),
                        "distlock.redis.username=" + USER,
                        "distlock.redis.password=" + PASSWORD,
                        "distlock.redis.ssl-bundle=other",
                        trust("other", CERTIFICATES.untrustedCaCertificate()))
                .run(context -> {
                    assertThat(context).hasFailed();
                    Throwable failure = context.getStartupFailure();
                    assertThat(distlockFailure(failure)).isInstanceOf(LockException.class)
                            .hasMessageContaining("certificate is not trusted")
                            .hasMessageContaining("distlock.redis.ssl-bundle");
                    assertThat(FailureMessages.of(failure)).noneMatch(m -> m.contains(PASSWORD));
                });
    }

    @Test
    void sslWithoutABundleUsesTheJvmTrustWhichDoesNotKnowTheTestCa() {
        runner.withPropertyValues(
                        "distlock.redis.url=redis://" + server().host() + ":" + server().port(),
                        "distlock.redis.ssl=true",
                        "distlock.redis.username=" + USER,
                        "distlock.redis.password=" + PASSWORD)
                .run(context -> assertThat(distlockFailure(context.getStartupFailure()))
                        .hasMessageContaining("certificate is not trusted"));
    }

    @Test
    void unknownBundleNameIsReportedWithTheProperty() {
        runner.withPropertyValues(
                        "distlock.redis.url=rediss://" + server().host() + ":" + server().port(),
                        "distlock.redis.ssl-bundle=missing",
                        trust("redis", CERTIFICATES.caCertificate()))
                .run(context -> assertThat(distlockFailure(context.getStartupFailure()))
                        .isInstanceOf(InvalidLockPropertyException.class)
                        .hasMessageContaining("distlock.redis.ssl-bundle")
                        .hasMessageContaining("no SSL bundle named 'missing'")
                        .hasMessageContaining("[redis]"));
    }

    @Test
    void toStringOfPropertiesAndSettingsHidesPasswords() {
        Binder binder = new Binder(new MapConfigurationPropertySource(Map.of(
                "distlock.redis.url", "rediss://" + USER + ":" + PASSWORD + "@redis.example:6380",
                "distlock.redis.password", PASSWORD,
                "distlock.redis.ssl-bundle", "redis")));
        DistLockProperties properties = binder.bind("distlock", DistLockProperties.class).get();
        RedisConnectionSettings settings = RedisConnectionSettings.resolve(properties, new StandardEnvironment());

        assertThat(properties.getRedis().getPassword()).isEqualTo(PASSWORD);
        assertThat(properties.getRedis().toString()).doesNotContain(PASSWORD).contains("sslBundle=redis");
        assertThat(settings.toString()).doesNotContain(PASSWORD).contains("sslBundle=redis");
        assertThat(settings.toRedisUri().toString()).doesNotContain(PASSWORD);
    }

    private static RedisServer server() {
        return redis.server();
    }

    /** The test server's address and credentials in spring.data.redis.*, trusting it through SSL bundle 'shared'. */
    private static String[] springDataRedisOverTls() {
        return new String[] {"spring.data.redis.host=" + server().host(), "spring.data.redis.port=" + server().port(),
                "spring.data.redis.username=" + USER, "spring.data.redis.password=" + PASSWORD,
                "spring.data.redis.ssl.bundle=shared", trust("shared", CERTIFICATES.caCertificate())};
    }

    private static String trust(String bundle, Path caPem) {
        return "spring.ssl.bundle.pem." + bundle + ".truststore.certificate=file:" + caPem;
    }

    /** The distlock exception in a startup failure's chain (Lettuce's causes, if any, sit below it). */
    private static Throwable distlockFailure(Throwable failure) {
        assertThat(failure).as("startup failure").isNotNull();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof LockException || t instanceof InvalidLockPropertyException) {
                return t;
            }
        }
        throw new AssertionError("no distlock exception in the startup failure", failure);
    }
}

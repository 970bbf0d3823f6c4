package io.distlock.core;

import io.distlock.test.FailureMessages;
import io.distlock.test.RedisExtension;
import io.distlock.test.RedisServer;
import io.distlock.test.RedisServerOptions;
import io.distlock.test.RedisServers;
import io.distlock.test.TestCertificates;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SslOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * ACL users and TLS ({@code rediss://}) against real servers: a TLS-only server whose certificate
 * is signed by a CA the test generates, which only admits the ACL user. Runs on Redis 7 and on the
 * embedded Redis 6.2 (both are built with TLS).
 */
@Timeout(60)
class SecureConnectionTest {

    private static final String USER = "alice";
    private static final String PASSWORD = "Acl-Pass-4711";
    private static final String WRONG_PASSWORD = "Wrong-Pass-0815";
    private static final TestCertificates CERTIFICATES = TestCertificates.shared();

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single(RedisServerOptions.defaults()
            .withTls(CERTIFICATES).withAclUser(USER, PASSWORD));

    @RegisterExtension
    final TestClients clients = new TestClients();

    @Test
    void aclUserOverTlsWithTrustedCaLocksAndUnlocks() {
        LockClient client = clients.open(redis.server(), builder -> builder
                .redisUri(uri(USER, PASSWORD))
                .sslOptions(trusting(CERTIFICATES.caCertificate())));

        RedisLock lock = client.getLock("secured");
        lock.lock();
        assertThat(redis.server().commandString("HGET", "distlock:{secured}",
                client.clientId() + ":" + Thread.currentThread().getId())).isEqualTo("1");
        lock.unlock();
        assertThat(lock.isLocked()).isFalse();
        assertThat(redis.server().command("ACL", "WHOAMI")).isEqualTo(USER);
    }

    @Test
    void credentialsOnALettuceUriWork() {
        RedisURI uri = RedisURI.builder(RedisURI.create(redis.server().uri()))
                .withAuthentication(USER, PASSWORD.toCharArray()).build();
        LockClient client = clients.open(redis.server(), builder -> builder
                .redisUri(uri)
                .sslOptions(trusting(CERTIFICATES.caCertificate())));

        RedisLock lock = client.getFairLock("lettuce-uri");
        assertThat(lock.tryLock()).isTrue();
        lock.unlock();
    }

    /** Non-Spring users who build their own Lettuce client put the trust into its ClientOptions. */
    @Test
    void ownRedisClientWithSslOptionsWorks() {
        RedisClient own = RedisClient.create(uri(USER, PASSWORD));
        try {
            own.setOptions(ClientOptions.builder().sslOptions(trusting(CERTIFICATES.caCertificate())).build());
            try (LockClient client = LockClient.builder().redisClient(own).build()) {
                RedisLock lock = client.getLock("own-client");
                lock.lock();
                lock.unlock();
            }
        } finally {
            own.shutdown();
        }
    }

    @Test
    void wrongAclPasswordFailsTheBuildNamingWhatToFixWithoutThePassword() {
        Throwable failure = buildFailure(LockClient.builder()
                .redisUri(uri(USER, WRONG_PASSWORD))
                .sslOptions(trusting(CERTIFICATES.caCertificate())));

        assertThat(failure).isInstanceOf(LockException.class)
                .hasMessageContaining("refused the credentials")
                .hasMessageContaining("Check the username and password");
        assertThat(FailureMessages.of(failure)).noneMatch(m -> m.contains(WRONG_PASSWORD) || m.contains(PASSWORD));
    }

    @Test
    void serverCertificateFromAnUntrustedCaFailsTheBuildSayingHowToTrustIt() {
        Throwable failure = buildFailure(LockClient.builder()
                .redisUri(uri(USER, PASSWORD))
                .sslOptions(trusting(CERTIFICATES.untrustedCaCertificate())));

        assertThat(failure).isInstanceOf(LockException.class)
                .hasMessageContaining("certificate")
                .hasMessageContaining("not trusted")
                .hasMessageContaining("sslOptions");
        assertThat(FailureMessages.of(failure)).noneMatch(m -> m.contains(PASSWORD));
    }

    @Test
    void withoutConfiguredTrustTheJvmDefaultsRejectTheTestCa() {
        Throwable failure = buildFailure(LockClient.builder().redisUri(uri(USER, PASSWORD)));

        assertThat(failure).isInstanceOf(LockException.class).hasMessageContaining("not trusted");
    }

    @Test
    void plainRedisUriAgainstATlsPortFailsWithinTheTimeout() {
        long start = System.nanoTime();
        Throwable failure = buildFailure(LockClient.builder()
                .redisUri("redis://" + USER + ":" + PASSWORD + "@127.0.0.1:" + redis.server().port()));

        assertThat(failure).isInstanceOf(LockException.class).hasMessageContaining("rediss://");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(15));
        assertThat(FailureMessages.of(failure)).noneMatch(m -> m.contains(PASSWORD));
    }

    @Test
    void tlsUriAgainstAPlainServerFailsPointingAtTheScheme() {
        try (RedisServer plain = RedisServers.start()) {
            Throwable failure = buildFailure(LockClient.builder()
                    .redisUri("rediss://" + plain.host() + ":" + plain.port())
                    .sslOptions(trusting(CERTIFICATES.caCertificate())));

            assertThat(failure).isInstanceOf(LockException.class)
                    .hasMessageContaining("handshake")
                    .hasMessageContaining("rediss:// only if it accepts TLS");
        }
    }

    @Test
    void sslOptionsWithACallersClientIsRejected() {
        RedisClient own = RedisClient.create(uri(USER, PASSWORD));
        try {
            assertThatThrownBy(() -> LockClient.builder().redisClient(own)
                    .sslOptions(trusting(CERTIFICATES.caCertificate())).build())
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("ClientOptions");
        } finally {
            own.shutdown();
        }
    }

    private static String uri(String user, String password) {
        RedisServer server = redis.server();
        return "rediss://" + user + ":" + password + "@" + server.host() + ":" + server.port();
    }

    private static SslOptions trusting(Path caPem) {
        return SslOptions.builder().trustManager(caPem.toFile()).build();
    }

    private static Throwable buildFailure(LockClient.Builder builder) {
        builder.commandTimeout(Duration.ofSeconds(3));
        try (LockClient unexpected = builder.build()) {
            throw new AssertionError("build() succeeded: " + unexpected);
        } catch (RuntimeException e) {
            return e;
        }
    }
}

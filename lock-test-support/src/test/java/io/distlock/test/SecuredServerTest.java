package io.distlock.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SignatureException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@Timeout(120)
class SecuredServerTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    @Test
    void generatedServerCertificateIsSignedByTheCaForLocalhost() throws Exception {
        TestCertificates certificates = TestCertificates.shared();
        X509Certificate ca = read(certificates.caCertificate());
        X509Certificate server = read(certificates.serverCertificate());
        X509Certificate other = read(certificates.untrustedCaCertificate());

        server.verify(ca.getPublicKey()); // throws unless the CA signed it
        assertThatThrownBy(() -> server.verify(other.getPublicKey())).isInstanceOf(SignatureException.class);
        assertThat(server.getSubjectAlternativeNames().stream().map(name -> String.valueOf(name.get(1))))
                .containsExactlyInAnyOrder("localhost", "127.0.0.1");
        assertThat(ca.getBasicConstraints()).isGreaterThanOrEqualTo(0);
        assertThat(Files.readString(certificates.serverPrivateKey())).startsWith("-----BEGIN PRIVATE KEY-----");
        assertThat(TestCertificates.shared()).isSameAs(certificates);
    }

    /** Redis 7 from PATH and the embedded Redis 6.2 binary are both built with TLS. */
    @ParameterizedTest
    @EnumSource(value = RedisMode.class, names = {"PROCESS", "EMBEDDED"})
    void tlsOnlyServerAnswersOverTlsAndSurvivesRestart(RedisMode mode) {
        RedisServerOptions options = RedisServerOptions.defaults().withMode(mode).withTls(TestCertificates.shared());
        try (RedisServer redis = RedisServers.start(options)) {
            assertThat(redis.uri()).isEqualTo("rediss://127.0.0.1:" + redis.port());
            assertThat(redis.command("SET", "k", "v")).isEqualTo("OK");
            assertThat(redis.command("CONFIG", "GET", "port")).isEqualTo(List.of("port", "0"));

            try (RespConnection plain = RespConnection.open(redis.host(), redis.port(), Duration.ofSeconds(2))) {
                assertThatThrownBy(() -> plain.call("PING")).as("no plain-text RESP on the TLS port")
                        .isInstanceOf(UncheckedIOException.class);
            }
            redis.kill();
            redis.start();
            assertThat(redis.command("PING")).isEqualTo("PONG");
        }
    }

    @Test
    void tlsConnectionTrustingAnotherCaIsRefused() {
        RedisServerOptions options = RedisServerOptions.defaults().withTls(TestCertificates.shared());
        try (RedisServer redis = RedisServers.start(options)) {
            assertThatThrownBy(() -> RespConnection.openTls(redis.host(), redis.port(), TIMEOUT,
                    TestCertificates.contextTrusting(TestCertificates.shared().untrustedCaCertificate())))
                    .isInstanceOf(UncheckedIOException.class)
                    .hasCauseInstanceOf(SSLHandshakeException.class);
        }
    }

    @Test
    void aclUserIsTheOnlyWayInAndItsPasswordIsMasked() {
        RedisServerOptions options = RedisServerOptions.defaults().withAclUser("alice", "s3cret-pw");
        try (RedisServer redis = RedisServers.start(options)) {
            assertThat(redis.options().username()).contains("alice");
            assertThat(redis.password()).contains("s3cret-pw");
            assertThat(redis.command("ACL", "WHOAMI")).isEqualTo("alice");
            try (RespConnection anonymous = RespConnection.open(redis.host(), redis.port(), TIMEOUT)) {
                assertThatThrownBy(() -> anonymous.call("PING")).isInstanceOf(RedisReplyException.class)
                        .hasMessageContaining("NOAUTH");
                assertThatThrownBy(() -> anonymous.auth("alice", "wrong")).isInstanceOf(RedisReplyException.class)
                        .hasMessageContaining("WRONGPASS");
            }
            assertThat(redis.options().toString()).contains("alice").doesNotContain("s3cret-pw");
        }
    }

    @Test
    void badAclArgumentsAreRejected() {
        assertThatThrownBy(() -> RedisServerOptions.defaults().withAclUser("al ice", "pw"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("without spaces");
    }

    private static X509Certificate read(Path pem) throws Exception {
        try (InputStream in = Files.newInputStream(pem)) {
            return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
        }
    }
}

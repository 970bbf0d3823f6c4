package io.distlock.core.internal.engine;

import io.distlock.core.LockException;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisConnectionException;
import org.junit.jupiter.api.Test;

import java.net.ConnectException;
import java.net.SocketException;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertificateException;
import java.util.concurrent.CompletionException;
import javax.net.ssl.SSLHandshakeException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The messages of failures that real-Redis tests cannot provoke on one loopback address (a
 * certificate for another host name) or that need no server at all. Untrusted certificates, wrong
 * passwords and stalled handshakes are proven against real servers in SecureConnectionTest.
 */
class RedisFailuresTest {

    @Test
    void certificateForAnotherHostIsReportedAsRejectedNotAsUnreachable() {
        SSLHandshakeException handshake = new SSLHandshakeException("No subject alternative names matching IP "
                + "address 10.0.0.7 found");
        handshake.initCause(new CertificateException("No subject alternative names matching IP address 10.0.0.7"));

        RuntimeException failure = RedisFailures.translate("connect to Redis at rediss://10.0.0.7:6380",
                new RedisConnectionException("Unable to connect to 10.0.0.7:6380", handshake));

        assertThat(failure).isInstanceOf(LockException.class)
                .hasMessageContaining("Could not connect to Redis at rediss://10.0.0.7:6380")
                .hasMessageContaining("TLS certificate was rejected")
                .hasMessageContaining("issued for the host name in the URI")
                .hasMessageNotContaining("unreachable");
    }

    @Test
    void refusedConnectionIsUnreachableButADroppedOnePointsAtTls() {
        RuntimeException refused = RedisFailures.translate("connect", new CompletionException(
                new RedisConnectionException("Unable to connect", new ConnectException("Connection refused"))));
        RuntimeException reset = RedisFailures.translate("connect",
                new RedisConnectionException("Unable to connect", new SocketException("Connection reset")));

        assertThat(refused).hasMessageContaining("Redis refused the connection").hasMessageNotContaining("rediss://");
        assertThat(reset).hasMessageContaining("Redis closed the connection").hasMessageContaining("rediss://");
    }

    @Test
    void onlyAnswersAboutTheClientsSettingsAreRefusalsOthersAnOutage() {
        assertThat(RedisFailures.refused(connectFailure(new RedisCommandExecutionException(
                "NOPERM User app has no permissions to run the 'hello' command")))).isTrue();
        assertThat(RedisFailures.refused(connectFailure(new RedisCommandExecutionException(
                "ERR DB index is out of range")))).isTrue();
        assertThat(RedisFailures.refused(connectFailure(new RedisCommandExecutionException(
                "ERR Client sent AUTH, but no password is set")))).isTrue();
        assertThat(RedisFailures.refused(connectFailure(new RedisCommandExecutionException(
                "LOADING Redis is loading the dataset in memory")))).isFalse();
        assertThat(RedisFailures.refused(connectFailure(new RedisCommandExecutionException(
                "ERR max number of clients reached")))).isFalse();
        assertThat(RedisFailures.translate("connect", connectFailure(new RedisCommandExecutionException(
                "ERR max number of clients reached")))).hasMessageContaining("cannot serve the connection now");
    }

    @Test
    void aCertificateTheClientOrServerRejectsIsARefusalAHandshakeCutShortAnOutage() {
        SSLHandshakeException untrusted = new SSLHandshakeException("PKIX path building failed");
        untrusted.initCause(new CertPathBuilderException("unable to find valid certification path"));
        assertThat(RedisFailures.refused(connectFailure(untrusted))).isTrue();
        assertThat(RedisFailures.refused(connectFailure(new SSLHandshakeException("Received fatal alert: "
                + "bad_certificate")))).isTrue();
        assertThat(RedisFailures.refused(connectFailure(new SSLHandshakeException("Connection closed while "
                + "SSL/TLS handshake was in progress")))).isFalse();
        assertThat(RedisFailures.refused(connectFailure(new ConnectException("Connection refused")))).isFalse();
    }

    @Test
    void aConnectThatTimedOutIsNoRefusal() {
        assertThat(RedisFailures.connectionRefused(new ConnectException("Connection refused: localhost/127.0.0.1:6379")))
                .isTrue();
        // Netty's ConnectTimeoutException is a ConnectException too
        assertThat(RedisFailures.connectionRefused(new ConnectException("connection timed out after 5000 ms: "
                + "10.1.2.3/10.1.2.3:6379"))).isFalse();
    }

    @Test
    void aClusterClientsRefusalIsFoundInTheSeedNodesFailures() {
        RedisConnectionException cluster = new RedisConnectionException("Unable to establish a connection to "
                + "Redis Cluster");
        cluster.addSuppressed(connectFailure(new ConnectException("Connection refused")));
        cluster.addSuppressed(connectFailure(new RedisCommandExecutionException("WRONGPASS invalid username-"
                + "password pair or user is disabled.")));

        assertThat(RedisFailures.refused(cluster)).isTrue();
        assertThat(RedisFailures.translate("connect", cluster)).hasMessageContaining("refused the credentials");
    }

    private static RedisConnectionException connectFailure(Throwable cause) {
        return new RedisConnectionException("Unable to connect to localhost:6379", cause);
    }

    @Test
    void lockExceptionsPassUnchanged() {
        LockException own = new LockException("already explained");
        assertThat(RedisFailures.translate("anything", new CompletionException(own))).isSameAs(own);
    }
}

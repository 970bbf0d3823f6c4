package io.distlock.core.internal.engine;

import io.distlock.core.LockException;
import io.lettuce.core.RedisConnectionException;
import org.junit.jupiter.api.Test;

import java.net.ConnectException;
import java.net.SocketException;
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

        assertThat(refused).hasMessageContaining("Redis is unreachable").hasMessageNotContaining("rediss://");
        assertThat(reset).hasMessageContaining("Redis closed the connection").hasMessageContaining("rediss://");
    }

    @Test
    void lockExceptionsPassUnchanged() {
        LockException own = new LockException("already explained");
        assertThat(RedisFailures.translate("anything", new CompletionException(own))).isSameAs(own);
    }
}

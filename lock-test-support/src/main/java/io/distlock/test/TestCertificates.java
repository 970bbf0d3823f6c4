package io.distlock.test;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Certificates for TLS tests, generated once per JVM with the JDK's {@code keytool} (no extra
 * dependency) into a temporary directory that is deleted at exit:
 *
 * <ul>
 *   <li>a test CA ({@link #caCertificate()}),</li>
 *   <li>a server certificate for {@code localhost} and {@code 127.0.0.1} signed by that CA
 *       ({@link #serverCertificate()}, key in {@link #serverPrivateKey()}), which
 *       {@link RedisServerOptions#withTls(TestCertificates)} gives to {@code redis-server},</li>
 *   <li>an unrelated CA ({@link #untrustedCaCertificate()}) for "certificate not trusted" tests.</li>
 * </ul>
 *
 * <p>All files are PEM: certificates as {@code BEGIN CERTIFICATE}, the key as PKCS#8
 * {@code BEGIN PRIVATE KEY}, the form {@code redis-server} and Spring Boot's PEM SSL bundles read.
 */
public final class TestCertificates {

    private static final String STORE_PASSWORD = "test-store";
    private static final long KEYTOOL_TIMEOUT_SECONDS = 60;
    private static volatile TestCertificates shared;

    private final Path dir;

    private TestCertificates(Path dir) {
        this.dir = dir;
    }

    /**
     * Returns the certificates of this JVM, generating them on first use (a few {@code keytool} runs).
     *
     * @return the certificates
     * @throws IllegalStateException if {@code keytool} fails
     */
    public static TestCertificates shared() {
        TestCertificates result = shared;
        if (result == null) {
            synchronized (TestCertificates.class) {
                result = shared;
                if (result == null) {
                    result = generate();
                    shared = result;
                }
            }
        }
        return result;
    }

    /**
     * Returns the PEM certificate of the CA that signed {@link #serverCertificate()}; trust it to
     * connect.
     *
     * @return the file
     */
    public Path caCertificate() {
        return dir.resolve("ca.pem");
    }

    /**
     * Returns the PEM certificate of an unrelated CA that signed nothing the server uses; trusting
     * only it must fail the TLS handshake.
     *
     * @return the file
     */
    public Path untrustedCaCertificate() {
        return dir.resolve("other-ca.pem");
    }

    /**
     * Returns the PEM server certificate (subject alternative names {@code localhost} and
     * {@code 127.0.0.1}).
     *
     * @return the file
     */
    public Path serverCertificate() {
        return dir.resolve("server.pem");
    }

    /**
     * Returns the server's private key, PEM-encoded PKCS#8.
     *
     * @return the file
     */
    public Path serverPrivateKey() {
        return dir.resolve("server.key");
    }

    /**
     * Returns an SSL context that trusts {@link #caCertificate()}, for raw test connections.
     *
     * @return a new context
     */
    public SSLContext clientContext() {
        return contextTrusting(caCertificate());
    }

    /**
     * Returns an SSL context that trusts only the CA certificate in {@code caPem}.
     *
     * @param caPem a PEM CA certificate, e.g. {@link #untrustedCaCertificate()}
     * @return a new context
     */
    public static SSLContext contextTrusting(Path caPem) {
        try (InputStream in = Files.newInputStream(caPem)) {
            Certificate ca = CertificateFactory.getInstance("X.509").generateCertificate(in);
            KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
            trust.load(null, null);
            trust.setCertificateEntry("ca", ca);
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(trust);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, factory.getTrustManagers(), null);
            return context;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + caPem, e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Cannot build an SSL context trusting " + caPem, e);
        }
    }

    @Override
    public String toString() {
        return "TestCertificates[" + dir + "]";
    }

    private static TestCertificates generate() {
        Path dir;
        try {
            dir = Files.createTempDirectory("distlock-tls-");
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create a directory for test certificates", e);
        }
        dir.toFile().deleteOnExit(); // registered first, so deleted last, once the files are gone
        TestCertificates certificates = new TestCertificates(dir);
        certificates.createAuthority("ca", "CN=distlock test CA", certificates.caCertificate());
        certificates.createAuthority("other-ca", "CN=distlock unrelated CA", certificates.untrustedCaCertificate());
        certificates.createServerCertificate();
        return certificates;
    }

    private void createAuthority(String name, String subject, Path pem) {
        Path store = file(name + ".p12");
        keytool("-genkeypair", "-alias", name, "-keyalg", "RSA", "-keysize", "2048", "-validity", "30",
                "-dname", subject, "-ext", "BC:c=ca:true", "-ext", "KU:c=keyCertSign,cRLSign",
                "-keystore", store.toString(), "-storetype", "PKCS12", "-storepass", STORE_PASSWORD);
        keytool("-exportcert", "-rfc", "-alias", name, "-keystore", store.toString(), "-storepass", STORE_PASSWORD,
                "-file", track(pem).toString());
    }

    private void createServerCertificate() {
        Path store = file("server.p12");
        Path request = file("server.csr");
        keytool("-genkeypair", "-alias", "server", "-keyalg", "RSA", "-keysize", "2048", "-validity", "30",
                "-dname", "CN=localhost", "-keystore", store.toString(), "-storetype", "PKCS12",
                "-storepass", STORE_PASSWORD);
        keytool("-certreq", "-alias", "server", "-keystore", store.toString(), "-storepass", STORE_PASSWORD,
                "-file", request.toString());
        keytool("-gencert", "-rfc", "-alias", "ca", "-keystore", file("ca.p12").toString(),
                "-storepass", STORE_PASSWORD, "-infile", request.toString(), "-validity", "30",
                "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-ext", "KU:c=digitalSignature,keyEncipherment",
                "-ext", "EKU=serverAuth", "-outfile", track(serverCertificate()).toString());
        writePrivateKey(store);
    }

    private void writePrivateKey(Path store) {
        try (InputStream in = Files.newInputStream(store)) {
            KeyStore keyStore = KeyStore.getInstance("PKCS12");
            keyStore.load(in, STORE_PASSWORD.toCharArray());
            PrivateKey key = (PrivateKey) keyStore.getKey("server", STORE_PASSWORD.toCharArray());
            // getEncoded() of an RSA private key is its PKCS#8 form
            String pem = "-----BEGIN PRIVATE KEY-----\n"
                    + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(key.getEncoded())
                    + "\n-----END PRIVATE KEY-----\n";
            Files.writeString(track(serverPrivateKey()), pem, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write the server key from " + store, e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Cannot read the server key from " + store, e);
        }
    }

    /** Returns a file in the directory, to be deleted at exit. */
    private Path file(String name) {
        return track(dir.resolve(name));
    }

    private static Path track(Path file) {
        file.toFile().deleteOnExit();
        return file;
    }

    private static void keytool(String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.add("-noprompt");
        command.addAll(List.of(args));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            try {
                process.getOutputStream().close();
                if (!process.waitFor(KEYTOOL_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("keytool " + args[0] + " did not finish within "
                            + KEYTOOL_TIMEOUT_SECONDS + " s");
                }
                String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                if (process.exitValue() != 0) {
                    throw new IllegalStateException("keytool " + args[0] + " failed (exit " + process.exitValue()
                            + "): " + output.trim());
                }
            } finally {
                process.destroyForcibly();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot run keytool " + args[0], e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while running keytool " + args[0], e);
        }
    }
}

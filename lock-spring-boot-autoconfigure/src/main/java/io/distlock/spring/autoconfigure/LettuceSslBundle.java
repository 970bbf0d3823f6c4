package io.distlock.spring.autoconfigure;

import io.lettuce.core.SslOptions;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.ssl.NoSuchSslBundleException;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;

/**
 * Turns a Spring Boot SSL bundle ({@code spring.ssl.bundle.*}) into Lettuce's {@link SslOptions}:
 * its key and trust managers, and its cipher suites and protocols when the bundle restricts them.
 */
final class LettuceSslBundle {

    private LettuceSslBundle() {
    }

    /**
     * @param property the property that named the bundle, for error messages
     * @param name     the bundle's name
     * @param bundles  Spring Boot's registry of bundles, or {@code null} if there is none
     * @return the TLS options of the bundle
     * @throws InvalidLockPropertyException if there is no such bundle
     */
    static SslOptions options(String property, String name, @Nullable SslBundles bundles) {
        if (bundles == null) {
            throw new InvalidLockPropertyException(property, "SSL bundle '" + name + "' is named, but the "
                    + "application has no SslBundles bean", "Keep Spring Boot's SslAutoConfiguration enabled, or "
                    + "define an SslBundles bean.");
        }
        SslBundle bundle;
        try {
            bundle = bundles.getBundle(name);
        } catch (NoSuchSslBundleException e) {
            throw new InvalidLockPropertyException(property, "there is no SSL bundle named '" + name + "' (known: "
                    + bundles.getBundleNames() + ")", "Define it under spring.ssl.bundle.pem." + name
                    + " (PEM files) or spring.ssl.bundle.jks." + name + " (key stores), or fix the name.");
        }
        return options(bundle);
    }

    /**
     * @param bundle an SSL bundle, e.g. the one of Spring Boot's Redis connection details
     * @return its TLS options
     */
    static SslOptions options(SslBundle bundle) {
        SslOptions.Builder options = SslOptions.builder()
                .jdkSslProvider()
                .keyManager(bundle.getManagers().getKeyManagerFactory())
                .trustManager(bundle.getManagers().getTrustManagerFactory());
        String[] ciphers = bundle.getOptions().getCiphers();
        if (ciphers != null) {
            options.cipherSuites(ciphers);
        }
        String[] protocols = bundle.getOptions().getEnabledProtocols();
        if (protocols != null) {
            options.protocols(protocols);
        }
        return options.build();
    }
}

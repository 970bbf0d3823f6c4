package io.distlock.test;

import org.testcontainers.DockerClientFactory;

/**
 * Answers, once per JVM, whether Testcontainers can reach a Docker engine.
 *
 * <p>Any failure while probing (missing classes, misconfiguration, unreachable socket) counts as
 * "not available", so callers can fall back to local {@code redis-server} processes.
 */
public final class DockerAvailability {

    private static volatile Boolean available;

    private DockerAvailability() {
    }

    /**
     * Returns whether a Docker engine is reachable through Testcontainers; the answer is cached.
     *
     * @return {@code true} if Docker can be used
     */
    public static boolean isAvailable() {
        Boolean result = available;
        if (result == null) {
            synchronized (DockerAvailability.class) {
                result = available;
                if (result == null) {
                    result = probe();
                    available = result;
                }
            }
        }
        return result;
    }

    private static boolean probe() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Throwable e) { // incl. ServiceConfigurationError/NoClassDefFoundError from a broken classpath
            return false;
        }
    }
}

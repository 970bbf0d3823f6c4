package io.distlock.test;

import org.testcontainers.DockerClientFactory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

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
        if (!dockerInSight()) {
            // Asking Testcontainers would only log an ERROR that no Docker environment was found.
            return false;
        }
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Throwable e) { // incl. ServiceConfigurationError/NoClassDefFoundError from a broken classpath
            return false;
        }
    }

    /**
     * @return whether anything points at a Docker engine: {@code DOCKER_HOST}, a Testcontainers
     *         configuration file, or a Docker socket where Docker and Docker Desktop put it
     */
    private static boolean dockerInSight() {
        if (System.getenv("DOCKER_HOST") != null) {
            return true;
        }
        Path home = Path.of(System.getProperty("user.home"));
        return Stream.of(Path.of("/var/run/docker.sock"), home.resolve(".testcontainers.properties"),
                        home.resolve(".docker/run/docker.sock"), home.resolve(".docker/desktop/docker.sock"))
                .anyMatch(Files::exists);
    }
}

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
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Throwable e) { // incl. ServiceConfigurationError/NoClassDefFoundError from a broken classpath
            return false;
        }
    }

    /**
     * A cheap look, without Testcontainers, for whether a Docker engine may be there, before
     * {@link #isAvailable()} asks Testcontainers (which logs an ERROR when it finds none). Only the
     * automatic choice of mode uses it; a test run that asks for Docker asks Testcontainers at once.
     *
     * @return whether anything points at a Docker engine: a {@code DOCKER_*} or
     *         {@code TESTCONTAINERS_*} environment variable, a Testcontainers configuration file, or
     *         a socket where Docker, Docker Desktop, Colima, OrbStack, Rancher Desktop or Podman put it
     */
    public static boolean inSight() {
        if (System.getenv().keySet().stream().anyMatch(name -> name.startsWith("DOCKER_")
                || name.startsWith("TESTCONTAINERS_"))) {
            return true;
        }
        Path home = Path.of(System.getProperty("user.home"));
        String runtimeDir = System.getenv("XDG_RUNTIME_DIR");
        return Stream.of(Path.of("/var/run/docker.sock"), Path.of("/run/podman/podman.sock"),
                        home.resolve(".testcontainers.properties"), home.resolve(".docker/run/docker.sock"),
                        home.resolve(".docker/desktop/docker.sock"), home.resolve(".colima/default/docker.sock"),
                        home.resolve(".orbstack/run/docker.sock"), home.resolve(".rd/docker.sock"),
                        Path.of(runtimeDir == null ? "/nonexistent" : runtimeDir, "podman/podman.sock"))
                .anyMatch(Files::exists);
    }
}

package io.distlock.sample.race;

import io.distlock.sample.EmbeddedRedisFallback;
import io.distlock.sample.LocalPorts;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Two sample instances, each in a JVM of its own, as a service runs in production: one Redis for
 * their locks, one database, one payment provider.
 * <ul>
 *   <li>Redis: decided here, once, and given to both explicitly, so that nothing in their
 *       environment can send them to different servers: the given URL; else the one on
 *       localhost:6379; else an embedded Redis the first instance starts on a port chosen here.</li>
 *   <li>Database: an H2 file database in a temporary directory, opened in H2's mixed mode
 *       ({@code AUTO_SERVER}): the first instance serves it over TCP to the second. The first
 *       creates the tables.</li>
 *   <li>Payment provider: the first instance's {@code /fake-provider}, for both.</li>
 * </ul>
 * {@link #close()} stops both and deletes the directory; so does the JVM's exit, Ctrl-C included.
 */
final class TwoInstances implements AutoCloseable {

    private final Path directory;
    private final String redisUrl;
    private final List<SampleInstance> instances = new ArrayList<>();
    private final Thread closeOnExit = new Thread(this::closeQuietly, "stop-sample-instances");

    private TwoInstances(Path directory, String redisUrl) {
        this.directory = directory;
        this.redisUrl = redisUrl;
        Runtime.getRuntime().addShutdownHook(closeOnExit);
    }

    /**
     * Starts the first instance, waits until it is ready, then the second.
     *
     * @param redisUrl       the Redis to use, if one is configured
     * @param startupTimeout how long each instance may take to get ready
     * @param progress       where to say what is started
     * @return both, ready
     * @throws IllegalStateException if an instance did not get ready; both are stopped then
     */
    static TwoInstances start(Optional<String> redisUrl, Duration startupTimeout, PrintStream progress)
            throws InterruptedException {
        List<String> firstRedis;
        String redis;
        if (redisUrl.isPresent()) {
            redis = redisUrl.get();
            firstRedis = List.of("--distlock.redis.url=" + redis);
        } else if (LocalPorts.listening(EmbeddedRedisFallback.DEFAULT_REDIS_PORT)) {
            redis = "redis://localhost:" + EmbeddedRedisFallback.DEFAULT_REDIS_PORT;
            firstRedis = List.of("--distlock.redis.url=" + redis);
        } else {
            int port = LocalPorts.free();
            redis = "redis://localhost:" + port;
            firstRedis = List.of("--" + EmbeddedRedisFallback.PORT_PROPERTY + "=" + port);
        }
        TwoInstances both = new TwoInstances(temporaryDirectory(), redis);
        try {
            String database = "--spring.datasource.url=jdbc:h2:file:" + both.directory.resolve("orders") + ";AUTO_SERVER=TRUE";
            List<String> first = new ArrayList<>(firstRedis);
            first.addAll(List.of(database, "--spring.sql.init.mode=always"));
            SampleInstance one = both.started("instance-1", first, startupTimeout, progress);
            both.started("instance-2", List.of(database, "--spring.sql.init.mode=never", "--distlock.redis.url=" + redis,
                    "--sample.payment-gateway.url=" + one.url()), startupTimeout, progress);
            return both;
        } catch (RuntimeException | InterruptedException e) {
            both.close();
            throw e;
        }
    }

    /** @return the instances' base URLs */
    List<URI> urls() {
        return instances.stream().map(SampleInstance::url).toList();
    }

    /** @return the instances' processes */
    List<ProcessHandle> processes() {
        return instances.stream().map(SampleInstance::process).toList();
    }

    /** @return the Redis both keep their locks in */
    String redisUrl() {
        return redisUrl;
    }

    /**
     * Stops the second instance, then the first (which serves the database and may run the Redis),
     * and deletes the directory. Closing again does nothing more.
     */
    @Override
    public synchronized void close() throws InterruptedException {
        for (int i = instances.size() - 1; i >= 0; i--) {
            instances.get(i).close();
        }
        deleteDirectory();
        if (Thread.currentThread() != closeOnExit) {
            try {
                Runtime.getRuntime().removeShutdownHook(closeOnExit);
            } catch (IllegalStateException exiting) {
                // the hook runs anyway, and finds nothing left to do
            }
        }
    }

    private void closeQuietly() {
        try {
            close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private SampleInstance started(String name, List<String> arguments, Duration startupTimeout,
                                   PrintStream progress) throws InterruptedException {
        SampleInstance instance = SampleInstance.start(name, directory, arguments);
        synchronized (this) {
            instances.add(instance);
        }
        progress.println("Starting " + name + " at " + instance.url() + " (Redis " + redisUrl + ", log "
                + directory.resolve(name + ".log") + ")");
        instance.awaitReady(startupTimeout);
        return instance;
    }

    private static Path temporaryDirectory() {
        try {
            return Files.createTempDirectory("distlock-race-");
        } catch (IOException e) {
            throw new UncheckedIOException("Could not create a directory for the race's database", e);
        }
    }

    private void deleteDirectory() {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Could not delete " + directory, e);
        }
    }
}

package io.distlock.sample.race;

import io.distlock.sample.EmbeddedRedisFallback;

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
 *   <li>Redis: the given URL; else the one on localhost:6379; else the embedded Redis the first
 *       instance starts, on a port chosen here so the second can be pointed at it.</li>
 *   <li>Database: an H2 file database in a temporary directory, opened in H2's mixed mode
 *       ({@code AUTO_SERVER}): the first instance serves it over TCP to the second. The first
 *       creates the tables.</li>
 *   <li>Payment provider: the first instance's {@code /fake-provider}, for both.</li>
 * </ul>
 * {@link #close()} stops both and deletes the directory.
 */
final class TwoInstances implements AutoCloseable {

    private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(3);

    private final Path directory;
    private final String redisUrl;
    private final List<SampleInstance> instances = new ArrayList<>();

    private TwoInstances(Path directory, String redisUrl) {
        this.directory = directory;
        this.redisUrl = redisUrl;
    }

    /**
     * Starts the first instance, waits until it is ready, then the second.
     *
     * @param redisUrl the Redis to use, if one is configured
     * @param progress where to say what is started
     * @return both, ready
     */
    static TwoInstances start(Optional<String> redisUrl, PrintStream progress) throws InterruptedException {
        List<String> first = new ArrayList<>();
        String redis;
        if (redisUrl.isPresent()) {
            redis = redisUrl.get();
        } else if (EmbeddedRedisFallback.defaultRedisListening()) {
            redis = "redis://localhost:6379";
        } else {
            int port = SampleInstance.freePort();
            first.add("--" + EmbeddedRedisFallback.PORT_PROPERTY + "=" + port);
            redis = "redis://localhost:" + port;
        }
        TwoInstances both = new TwoInstances(temporaryDirectory(), redis);
        try {
            String database = "--spring.datasource.url=jdbc:h2:file:" + both.directory.resolve("orders") + ";AUTO_SERVER=TRUE";
            first.addAll(List.of(database, "--spring.sql.init.mode=always"));
            if (redisUrl.isPresent()) {
                first.add("--distlock.redis.url=" + redis);
            }
            SampleInstance one = both.started("instance-1", first, progress);
            both.started("instance-2", List.of(database, "--spring.sql.init.mode=never", "--distlock.redis.url=" + redis,
                    "--sample.payment-gateway.url=" + one.url()), progress);
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
     * Stops the second instance, then the first (which serves the database and may run the Redis).
     * Closing again does nothing more.
     */
    @Override
    public void close() throws InterruptedException {
        for (int i = instances.size() - 1; i >= 0; i--) {
            instances.get(i).close();
        }
        deleteDirectory();
    }

    private SampleInstance started(String name, List<String> arguments, PrintStream progress)
            throws InterruptedException {
        SampleInstance instance = SampleInstance.start(name, directory, arguments);
        instances.add(instance);
        progress.println("Starting " + name + " at " + instance.url() + " (Redis " + redisUrl + ", log "
                + directory.resolve(name + ".log") + ")");
        instance.awaitReady(STARTUP_TIMEOUT);
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

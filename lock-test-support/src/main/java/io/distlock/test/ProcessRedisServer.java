package io.distlock.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Stream;

/** A {@link RedisServer} backed by a local, guarded {@code redis-server} process on a loopback port. */
final class ProcessRedisServer implements RedisServer {

    private static final String HOST = "127.0.0.1";
    private static final int PORT_ATTEMPTS = 5;
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration SIGNAL_SETTLE = Duration.ofSeconds(2);

    private final RedisBinary binary;
    private final RedisServerOptions options;
    private final Path dir;
    private final Path log;
    private final int port;
    private volatile GuardedProcess process;
    private boolean paused;
    private boolean closed;

    private ProcessRedisServer(RedisBinary binary, RedisServerOptions options, Path dir, int port) {
        this.binary = binary;
        this.options = options;
        this.dir = dir;
        this.log = dir.resolve("redis.log");
        this.port = port;
    }

    /** Starts a server on a fresh free port, retrying with other ports if redis cannot bind. */
    static ProcessRedisServer start(RedisBinary binary, RedisServerOptions options) {
        IllegalStateException lastFailure = null;
        for (int attempt = 0; attempt < PORT_ATTEMPTS; attempt++) {
            Path dir = createDataDir();
            int port = options.clusterEnabled() ? FreePorts.reserveWithClusterBus() : FreePorts.reserve();
            ProcessRedisServer server = new ProcessRedisServer(binary, options, dir, port);
            ShutdownReaper.register(server, server::killQuietly);
            try {
                server.start();
                return server;
            } catch (PortInUseException e) {
                lastFailure = e;
                server.close();
            } catch (RuntimeException e) {
                server.close();
                throw e;
            }
        }
        throw new IllegalStateException("redis-server could not bind a free port in " + PORT_ATTEMPTS
                + " attempts", lastFailure);
    }

    @Override
    public String host() {
        return HOST;
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public String version() {
        return binary.version();
    }

    @Override
    public synchronized OptionalLong pid() {
        return process != null && process.isAlive() ? OptionalLong.of(process.pid()) : OptionalLong.empty();
    }

    @Override
    public RedisServerOptions options() {
        return options;
    }

    @Override
    public synchronized void start() {
        if (closed) {
            throw new IllegalStateException("Redis server on port " + port + " is closed");
        }
        if (isRunning()) {
            return;
        }
        long logOffset = LogTail.size(log);
        GuardedProcess launched = GuardedProcess.launch(command(), log, dir);
        closeStdin(launched);
        process = launched;
        paused = false;
        String failure = Readiness.awaitPong(this, options.startupTimeout(), launched::isAlive);
        if (failure != null) {
            launched.killNow();
            String tail = LogTail.since(log, logOffset);
            String message = "redis-server (" + binary + ") on port " + port + " failed to start: " + failure
                    + "\n--- server log ---\n" + tail + guardianNote(launched);
            if (tail.contains("Address already in use")) {
                throw new PortInUseException(message);
            }
            throw new IllegalStateException(message);
        }
    }

    @Override
    public synchronized void stop() {
        if (!isRunning()) {
            return;
        }
        resume();
        process.signal("TERM");
        if (!process.awaitExit(STOP_TIMEOUT)) {
            process.killNow();
        }
    }

    @Override
    public synchronized void kill() {
        if (process != null) {
            process.killNow();
        }
        paused = false;
    }

    @Override
    public synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    @Override
    public synchronized boolean isPaused() {
        return paused && isRunning();
    }

    @Override
    public synchronized void pause() {
        if (!isRunning()) {
            throw new IllegalStateException("Cannot pause: redis-server on port " + port + " is not running");
        }
        process.signal("STOP");
        paused = true;
        Signals.awaitStopped(process.pid(), true, SIGNAL_SETTLE);
    }

    @Override
    public synchronized void resume() {
        if (!paused) {
            return;
        }
        paused = false;
        if (isRunning()) {
            process.signal("CONT");
            Signals.awaitStopped(process.pid(), false, SIGNAL_SETTLE);
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            kill();
        } finally {
            ShutdownReaper.unregister(this);
            FreePorts.release(port);
            if (options.clusterEnabled()) {
                FreePorts.release(port + FreePorts.CLUSTER_BUS_OFFSET);
            }
            deleteRecursively(dir);
        }
    }

    @Override
    public String toString() {
        return "RedisServer[" + uri() + ", redis " + version() + ", process]";
    }

    private List<String> command() {
        List<String> command = new ArrayList<>(List.of(binary.path().toString()));
        if (options.sentinel()) {
            command.add(sentinelConfigFile().toString());  // must be the first argument
        }
        if (options.tls().isPresent()) {
            command.addAll(List.of("--port", "0", "--tls-port", Integer.toString(port)));
        } else {
            command.addAll(List.of("--port", Integer.toString(port)));
        }
        command.addAll(List.of(
                "--bind", HOST,
                "--save", "",
                "--appendonly", "no",
                "--dir", dir.toString(),
                "--daemonize", "no",
                "--protected-mode", "no"));
        command.addAll(options.extraArgs());
        return command;
    }

    /** A Sentinel rewrites its configuration file with what it learns; it starts empty. */
    private Path sentinelConfigFile() {
        Path file = dir.resolve("sentinel.conf");
        try {
            if (!Files.exists(file)) {
                Files.createFile(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create " + file, e);
        }
        return file;
    }

    private void killQuietly() {
        GuardedProcess current = process; // no lock: the shutdown hook must never block
        if (current != null) {
            current.killNow();
        }
        deleteRecursively(dir);
    }

    private static void closeStdin(GuardedProcess launched) {
        try {
            launched.stdin().close(); // redis never reads stdin
        } catch (IOException ignored) {
            // nothing to do
        }
    }

    private static String guardianNote(GuardedProcess launched) {
        String output = launched.guardianOutput();
        return output.isBlank() ? "" : "\n--- guardian output ---\n" + output;
    }

    private static Path createDataDir() {
        try {
            return Files.createTempDirectory("distlock-redis-");
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create a Redis data directory", e);
        }
    }

    private static void deleteRecursively(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // best effort: a leftover temp dir is harmless
        }
    }

    /** Startup failed because the port was taken. */
    private static final class PortInUseException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        PortInUseException(String message) {
            super(message);
        }
    }
}

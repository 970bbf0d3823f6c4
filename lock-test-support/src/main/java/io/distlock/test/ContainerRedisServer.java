package io.distlock.test;

import com.github.dockerjava.api.DockerClient;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * A {@link RedisServer} backed by a {@code redis:7.2} container. The host port is bound explicitly, so
 * that {@code docker stop}/{@code docker start} keeps it. Testcontainers' reaper removes containers left
 * behind by a dead JVM.
 */
final class ContainerRedisServer implements RedisServer {

    static final String IMAGE = "redis:7.2";

    private static final System.Logger LOG = System.getLogger(ContainerRedisServer.class.getName());
    private static final int REDIS_PORT = 6379;
    private static final int PORT_ATTEMPTS = 3;
    private static final Pattern VERSION = Pattern.compile("redis_version:(\\S+)");
    private static volatile boolean logged;

    private final GenericContainer<?> container;
    private final RedisServerOptions options;
    private final int port;
    private final String host;
    private String version = "unknown";
    private boolean paused;
    private boolean closed;

    private ContainerRedisServer(GenericContainer<?> container, RedisServerOptions options, int port) {
        this.container = container;
        this.options = options;
        this.port = port;
        String containerHost = container.getHost();
        this.host = "localhost".equals(containerHost) ? "127.0.0.1" : containerHost;
    }

    static ContainerRedisServer start(RedisServerOptions options) {
        if (!DockerAvailability.isAvailable()) {
            throw new IllegalStateException("Redis mode 'docker' was requested (" + RedisMode.PROPERTY + " / "
                    + RedisMode.ENV + ") but Testcontainers cannot reach a Docker engine");
        }
        if (options.tls().isPresent()) {
            throw new IllegalStateException("TLS test servers (RedisServerOptions.withTls) run as local processes "
                    + "only: set " + RedisMode.PROPERTY + "=process");
        }
        RuntimeException lastFailure = null;
        for (int attempt = 0; attempt < PORT_ATTEMPTS; attempt++) {
            int port = FreePorts.reserve();
            GenericContainer<?> container = new GenericContainer<>(DockerImageName.parse(IMAGE))
                    .withExposedPorts(REDIS_PORT)
                    .withCommand(command(options))
                    .withStartupTimeout(options.startupTimeout().plusSeconds(60));
            container.setPortBindings(List.of(port + ":" + REDIS_PORT));
            try {
                container.start();
            } catch (RuntimeException e) {
                lastFailure = e;
                FreePorts.release(port);
                stopQuietly(container);
                continue;
            }
            ContainerRedisServer server = new ContainerRedisServer(container, options, port);
            try {
                server.awaitReady();
                server.version = server.readVersion();
            } catch (RuntimeException e) {
                server.close();
                throw e;
            }
            if (!logged) {
                logged = true;
                LOG.log(Level.INFO, "distlock tests use Redis " + server.version + " from Docker image " + IMAGE
                        + " (Testcontainers)");
            }
            return server;
        }
        throw new IllegalStateException("Cannot start a " + IMAGE + " container", lastFailure);
    }

    @Override
    public String host() {
        return host;
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public synchronized String version() {
        return version;
    }

    @Override
    public OptionalLong pid() {
        return OptionalLong.empty();
    }

    @Override
    public RedisServerOptions options() {
        return options;
    }

    @Override
    public synchronized void start() {
        if (closed) {
            throw new IllegalStateException("Redis container on port " + port + " is closed");
        }
        if (isRunning()) {
            return;
        }
        docker().startContainerCmd(container.getContainerId()).exec();
        paused = false;
        awaitReady();
    }

    @Override
    public synchronized void stop() {
        if (!isRunning()) {
            return;
        }
        resume();
        docker().stopContainerCmd(container.getContainerId()).withTimeout(10).exec();
    }

    @Override
    public synchronized void kill() {
        if (!isRunning()) {
            return;
        }
        resume(); // Docker refuses to kill a paused container
        docker().killContainerCmd(container.getContainerId()).exec();
    }

    @Override
    public synchronized boolean isRunning() {
        if (closed) {
            return false;
        }
        Boolean running = docker().inspectContainerCmd(container.getContainerId()).exec().getState().getRunning();
        return Boolean.TRUE.equals(running);
    }

    @Override
    public synchronized boolean isPaused() {
        return paused;
    }

    @Override
    public synchronized void pause() {
        if (!isRunning()) {
            throw new IllegalStateException("Cannot pause: Redis container on port " + port + " is not running");
        }
        if (!paused) {
            docker().pauseContainerCmd(container.getContainerId()).exec();
            paused = true;
        }
    }

    @Override
    public synchronized void resume() {
        if (paused) {
            docker().unpauseContainerCmd(container.getContainerId()).exec();
            paused = false;
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            resume();
        } catch (RuntimeException e) {
            // removal below forces it anyway
        }
        stopQuietly(container);
        FreePorts.release(port);
    }

    @Override
    public String toString() {
        return "RedisServer[" + uri() + ", redis " + version + ", container " + IMAGE + "]";
    }

    private DockerClient docker() {
        return container.getDockerClient();
    }

    private void awaitReady() {
        String failure = Readiness.awaitPong(this, options.startupTimeout(), () -> true);
        if (failure != null) {
            throw new IllegalStateException("Redis container " + IMAGE + " on port " + port + ": " + failure
                    + "\n--- container log ---\n" + tail(container.getLogs()));
        }
    }

    private String readVersion() {
        Matcher matcher = VERSION.matcher(String.valueOf(command("INFO", "server")));
        return matcher.find() ? matcher.group(1) : "unknown";
    }

    private static String[] command(RedisServerOptions options) {
        List<String> command = new ArrayList<>(List.of("redis-server",
                "--port", Integer.toString(REDIS_PORT),
                "--save", "",
                "--appendonly", "no",
                "--protected-mode", "no"));
        command.addAll(options.extraArgs());
        return command.toArray(new String[0]);
    }

    private static String tail(String logs) {
        return logs.length() <= 4000 ? logs : logs.substring(logs.length() - 4000);
    }

    private static void stopQuietly(GenericContainer<?> container) {
        try {
            container.stop();
        } catch (RuntimeException e) {
            // best effort; the Testcontainers reaper removes it at JVM exit anyway
        }
    }
}

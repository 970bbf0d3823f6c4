package io.distlock.spring.autoconfigure;

import io.distlock.core.RedisUris;
import io.distlock.spring.internal.BootRedisConnection;
import io.lettuce.core.RedisURI;
import io.lettuce.core.StaticCredentialsProvider;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Where distlock connects, from {@code distlock.redis.*} when any of its connection settings is
 * given, else from Spring Boot's Redis connection details ({@link #of}) or, without Spring Data
 * Redis, from Spring Boot's standard {@code spring.data.redis.*} names, else {@code localhost:6379}.
 * Every source becomes Lettuce {@link RedisURI}s.
 *
 * @param prefix         the property prefix the settings came from, for error messages
 * @param url            a Redis URL, or {@code null}
 * @param host           host when no URL is given
 * @param port           port when no URL is given
 * @param username       ACL user, overriding the URL's, or {@code null}
 * @param password       password, overriding the URL's, or {@code null}
 * @param ssl            whether to use TLS (also implied by an SSL bundle)
 * @param sslBundle      name of the Spring Boot SSL bundle with the trust material, or {@code null}
 * @param sslBundleProperty the property that named the bundle, for error messages, or {@code null}
 * @param database       database index, overriding the URL's, or {@code null}
 * @param sentinelMaster master name when using Sentinel, or {@code null}
 * @param sentinelNodes  Sentinel nodes as host:port
 * @param sentinelUsername ACL user the Sentinels ask for, or {@code null}
 * @param sentinelPassword password the Sentinels ask for, or {@code null}
 * @param clusterNodes   Cluster nodes as host:port
 */
record RedisConnectionSettings(String prefix, @Nullable String url, String host, int port, @Nullable String username,
                               @Nullable String password, boolean ssl, @Nullable String sslBundle,
                               @Nullable String sslBundleProperty, @Nullable Integer database,
                               @Nullable String sentinelMaster, List<String> sentinelNodes,
                               @Nullable String sentinelUsername, @Nullable String sentinelPassword,
                               List<String> clusterNodes) {

    private static final String SPRING_PREFIX = "spring.data.redis";
    private static final String SSL_BUNDLE = "distlock.redis.ssl-bundle";

    /**
     * @param properties  distlock's settings
     * @param environment for the {@code spring.data.redis.*} fallback
     * @return the settings in force
     */
    static RedisConnectionSettings resolve(DistLockProperties properties, Environment environment) {
        DistLockProperties.Redis redis = properties.getRedis();
        if (redis.isConfigured()) {
            return new RedisConnectionSettings("distlock.redis", redis.getUrl(), "localhost", 6379,
                    redis.getUsername(), redis.getPassword(), redis.isSsl(), redis.getSslBundle(),
                    redis.getSslBundle() == null ? null : SSL_BUNDLE, redis.getDatabase(),
                    redis.getSentinel().getMaster(), redis.getSentinel().getNodes(), null, null,
                    redis.getCluster().getNodes());
        }
        Binder binder = Binder.get(environment);
        String springBundle = string(binder, "ssl.bundle");
        String sslBundle = firstNonNull(redis.getSslBundle(), springBundle);
        return new RedisConnectionSettings(SPRING_PREFIX,
                string(binder, "url"),
                binder.bind(SPRING_PREFIX + ".host", String.class).orElse("localhost"),
                binder.bind(SPRING_PREFIX + ".port", Integer.class).orElse(6379),
                firstNonNull(redis.getUsername(), string(binder, "username")),
                firstNonNull(redis.getPassword(), string(binder, "password")),
                redis.isSsl() || springAsksForTls(binder),
                sslBundle,
                sslBundle == null ? null : redis.getSslBundle() != null ? SSL_BUNDLE : SPRING_PREFIX + ".ssl.bundle",
                firstNonNull(redis.getDatabase(), binder.bind(SPRING_PREFIX + ".database", Integer.class).orElse(null)),
                string(binder, "sentinel.master"),
                list(binder, "sentinel.nodes"),
                string(binder, "sentinel.username"),
                string(binder, "sentinel.password"),
                list(binder, "cluster.nodes"));
    }

    /**
     * @param boot        what Spring Boot's Redis connection-details bean says
     * @param redis       {@code distlock.redis.*}: its credentials, database and SSL bundle, when
     *                    set, win over Boot's
     * @param environment for TLS: Boot's connection details carry an SSL bundle, but whether
     *                    {@code spring.data.redis.ssl.enabled} or a {@code rediss://} URL asks
     *                    for TLS without one, Spring Boot reads from its properties, as this does
     * @return the settings in force
     * @throws InvalidLockPropertyException if Boot describes a setup distlock cannot lock on
     */
    static RedisConnectionSettings of(BootRedisConnection boot, DistLockProperties.Redis redis,
                                      Environment environment) {
        if (boot.masterReplica()) {
            throw new InvalidLockPropertyException(SPRING_PREFIX + ".masterreplica.nodes", "Spring Boot's Redis "
                    + "connection describes a static master/replica setup, whose master distlock cannot tell",
                    "Point distlock.redis.url at the master, or use Sentinel.");
        }
        BootRedisConnection.Standalone standalone = boot.standalone();
        BootRedisConnection.Sentinel sentinel = boot.sentinel();
        Integer database = sentinel != null ? Integer.valueOf(sentinel.database())
                : standalone != null ? Integer.valueOf(standalone.database()) : null;
        return new RedisConnectionSettings(SPRING_PREFIX + " (" + boot.type() + ")", null,
                standalone == null ? "localhost" : standalone.host(),
                standalone == null ? 6379 : standalone.port(),
                firstNonNull(redis.getUsername(), boot.username()),
                firstNonNull(redis.getPassword(), boot.password()),
                redis.isSsl() || boot.sslBundle() != null || springAsksForTls(Binder.get(environment)),
                redis.getSslBundle(), redis.getSslBundle() == null ? null : SSL_BUNDLE,
                firstNonNull(redis.getDatabase(), database),
                sentinel == null ? null : sentinel.master(),
                sentinel == null ? List.of() : sentinel.nodes(),
                sentinel == null ? null : sentinel.username(),
                sentinel == null ? null : sentinel.password(),
                boot.clusterNodes());
    }

    /** @return whether to connect with TLS: asked for, or implied by an SSL bundle */
    boolean usesTls() {
        return ssl || sslBundle != null;
    }

    /** @return whether the settings name a Redis Cluster */
    boolean isCluster() {
        checkOneTarget();
        return !clusterNodes.isEmpty();
    }

    /**
     * @return the Lettuce URI of a standalone or Sentinel-managed Redis
     * @throws InvalidLockPropertyException naming the setting that cannot work
     */
    RedisURI toRedisUri() {
        checkOneTarget();
        RedisURI uri = sentinelMaster != null ? sentinelUri()
                : url != null ? parseUrl(url) : RedisURI.create(host, port);
        return withCredentials(uri);
    }

    /**
     * @return one URI per cluster seed node, each with the credentials and TLS setting
     * @throws InvalidLockPropertyException naming the setting that cannot work
     */
    List<RedisURI> clusterUris() {
        if (database != null && database != 0) {
            throw new InvalidLockPropertyException(prefix + ".database", "Redis Cluster has only database 0, but "
                    + database + " is set", "Remove the database setting when using " + prefix + ".cluster.nodes.");
        }
        return clusterNodes.stream()
                .map(node -> HostAndPort.parse(prefix + ".cluster.nodes", node, 6379))
                .map(node -> withCredentials(RedisURI.create(node.host(), node.port())))
                .toList();
    }

    private void checkOneTarget() {
        int targets = (url != null ? 1 : 0) + (sentinelMaster != null ? 1 : 0) + (clusterNodes.isEmpty() ? 0 : 1);
        if (targets > 1) {
            throw new InvalidLockPropertyException(prefix + ".url", "more than one of " + prefix + ".url, "
                    + prefix + ".sentinel.master and " + prefix + ".cluster.nodes is set",
                    "Set only the one that describes your Redis.");
        }
    }

    /**
     * A credentials provider rather than {@code RedisURI.setAuthentication}, which Lettuce 6 (that of
     * Spring Boot 3.5) does not have.
     */
    private static StaticCredentialsProvider credentials(@Nullable String username, String password) {
        return new StaticCredentialsProvider(username, password.toCharArray());
    }

    private RedisURI withCredentials(RedisURI uri) {
        if (password != null) {
            uri.setCredentialsProvider(credentials(username, password));
        }
        if (usesTls()) {
            uri.setSsl(true);
        }
        if (database != null) {
            uri.setDatabase(database);
        }
        return uri;
    }

    private RedisURI parseUrl(String text) {
        try {
            return RedisURI.create(text);
        } catch (RuntimeException e) {
            throw new InvalidLockPropertyException(prefix + ".url", "'" + RedisUris.mask(text)
                    + "' is not a Redis URL (" + RedisUris.parseFailure(text, e) + ")",
                    "Use redis://[[user]:password@]host[:port][/database], or rediss://... for TLS.");
        }
    }

    private RedisURI sentinelUri() {
        if (sentinelNodes.isEmpty()) {
            throw new InvalidLockPropertyException(prefix + ".sentinel.nodes", "no Sentinel node is given for master '"
                    + sentinelMaster + "'", "List the Sentinel nodes as host:port.");
        }
        RedisURI.Builder builder = RedisURI.builder().withSentinelMasterId(sentinelMaster);
        for (String node : sentinelNodes) {
            HostAndPort sentinel = HostAndPort.parse(prefix + ".sentinel.nodes", node, 26379);
            RedisURI sentinelUri = RedisURI.create(sentinel.host(), sentinel.port());
            if (sentinelPassword != null) {
                sentinelUri.setCredentialsProvider(credentials(sentinelUsername, sentinelPassword));
            }
            builder.withSentinel(sentinelUri);
        }
        return builder.build();
    }

    /** @return whether {@code spring.data.redis.*} asks for TLS: {@code ssl.enabled}, or a {@code rediss://} URL */
    private static boolean springAsksForTls(Binder binder) {
        String url = string(binder, "url");
        return binder.bind(SPRING_PREFIX + ".ssl.enabled", Boolean.class).orElse(false)
                || (url != null && url.trim().regionMatches(true, 0, "rediss:", 0, 7));
    }

    private static @Nullable String string(Binder binder, String name) {
        return binder.bind(SPRING_PREFIX + "." + name, String.class).orElse(null);
    }

    private static List<String> list(Binder binder, String name) {
        return binder.bind(SPRING_PREFIX + "." + name, Bindable.listOf(String.class)).orElseGet(ArrayList::new);
    }

    private static <T> @Nullable T firstNonNull(@Nullable T first, @Nullable T second) {
        return first != null ? first : second;
    }

    /**
     * @return where these settings come from: distlock's properties, Spring Boot's Redis connection
     *         details, or Spring Boot's properties read by name (whose defaults are localhost:6379)
     */
    String describeSource() {
        if (prefix.startsWith(SPRING_PREFIX + " (")) {
            return "Spring Boot's Redis connection details " + prefix.substring(SPRING_PREFIX.length() + 1);
        }
        return prefix + ".* properties";
    }

    /** Hides the password from {@code toString()} (logs, actuator, exception messages). */
    @Override
    public String toString() {
        return "RedisConnectionSettings[" + prefix + ", url=" + (url == null ? null : RedisUris.mask(url))
                + ", host=" + host + ", port=" + port + ", username=" + username + ", password="
                + (password == null ? null : "***") + ", ssl=" + ssl + ", sslBundle=" + sslBundle
                + ", database=" + database
                + ", sentinelMaster=" + sentinelMaster + ", sentinelNodes=" + sentinelNodes
                + ", sentinelUsername=" + sentinelUsername + ", sentinelPassword="
                + (sentinelPassword == null ? null : "***")
                + ", clusterNodes=" + clusterNodes + "]";
    }

    /**
     * A parsed {@code host:port}, the port optional. An IPv6 address is written in brackets, as
     * Spring Boot reads it ({@code [::1]:26379}, {@code [::1]}); the host is then the address alone.
     */
    private record HostAndPort(String host, int port) {

        static HostAndPort parse(String property, String text, int defaultPort) {
            String node = text.trim();
            boolean bracketed = node.startsWith("[");
            int hostEnd = bracketed ? node.indexOf(']') + 1 : node.lastIndexOf(':');
            if (hostEnd < 0) {
                return new HostAndPort(node, defaultPort);
            }
            if (hostEnd == 0) {
                throw notHostAndPort(property, text);  // ":port", or "[" never closed
            }
            String host = bracketed ? node.substring(1, hostEnd - 1) : node.substring(0, hostEnd);
            String port = node.substring(hostEnd);
            if (port.isEmpty()) {
                return new HostAndPort(host, defaultPort);
            }
            if (!port.startsWith(":")) {
                throw notHostAndPort(property, text);
            }
            try {
                return new HostAndPort(host, Integer.parseInt(port.substring(1).trim()));
            } catch (NumberFormatException e) {
                throw notHostAndPort(property, text);
            }
        }

        private static InvalidLockPropertyException notHostAndPort(String property, String text) {
            return new InvalidLockPropertyException(property, "'" + text + "' is not host:port",
                    "Write each node as host:port, e.g. localhost:26379 or [::1]:26379.");
        }
    }
}

package io.distlock.spring.autoconfigure;

import io.distlock.core.RedisUris;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

import org.springframework.core.Ordered;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code distlock.*} settings. Durations use Spring Boot's format ({@code 500ms},
 * {@code 3s}, {@code 1m}). When no {@code distlock.redis.*} connection is given, the standard
 * Redis of Spring Boot's connection details or {@code spring.data.redis.*} is used, and without
 * those {@code localhost:6379}.
 */
@ConfigurationProperties(DistLockProperties.PREFIX)
public class DistLockProperties {

    /** Prefix of every distlock setting. */
    public static final String PREFIX = "distlock";

    /** Whether distlock's auto-configuration (client, template, annotation, metrics) is active. */
    private boolean enabled = true;

    /** Prefix of every Redis key distlock writes; must not contain '{' or '}'. */
    private String keyPrefix = "distlock:";

    /** How long to wait for a lock when an annotation or template call does not say. */
    private Duration waitTime = Duration.ofSeconds(3);

    /**
     * Lease of locks when an annotation or template call does not say; empty means the watchdog
     * renews the lease until release.
     */
    private @Nullable Duration leaseTime;

    private final Redis redis = new Redis();

    private final Watchdog watchdog = new Watchdog();

    private final Aspect aspect = new Aspect();

    private final Redlock redlock = new Redlock();

    private final ReplicaAck replicaAck = new ReplicaAck();

    private final Metrics metrics = new Metrics();

    private final Web web = new Web();

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public String getKeyPrefix() {
        return keyPrefix;
    }

    public void setKeyPrefix(String keyPrefix) {
        this.keyPrefix = keyPrefix;
    }

    public Duration getWaitTime() {
        return waitTime;
    }

    public void setWaitTime(Duration waitTime) {
        this.waitTime = waitTime;
    }

    public @Nullable Duration getLeaseTime() {
        return leaseTime;
    }

    public void setLeaseTime(@Nullable Duration leaseTime) {
        this.leaseTime = leaseTime;
    }

    public Redis getRedis() {
        return redis;
    }

    public Watchdog getWatchdog() {
        return watchdog;
    }

    public Aspect getAspect() {
        return aspect;
    }

    public Redlock getRedlock() {
        return redlock;
    }

    public ReplicaAck getReplicaAck() {
        return replicaAck;
    }

    public Metrics getMetrics() {
        return metrics;
    }

    public Web getWeb() {
        return web;
    }

    /** Where distlock's Redis is. Set at most one of url, sentinel.master and cluster.nodes. */
    public static class Redis {

        /** Redis URL, e.g. redis://user:secret@localhost:6379/0 or rediss://host:6380 for TLS. */
        private @Nullable String url;

        /** Redis ACL user name (overrides the URL's). */
        private @Nullable String username;

        /** Redis password (overrides the URL's). Never logged. */
        private @Nullable String password;

        /** Whether to connect with TLS (as rediss:// URLs do), trusting the CAs the JVM trusts. */
        private boolean ssl;

        /**
         * Name of a Spring Boot SSL bundle (spring.ssl.bundle.pem.NAME or spring.ssl.bundle.jks.NAME)
         * holding the CA to trust (and a client certificate, if Redis asks for one); implies ssl.
         * Without distlock.redis.* connection settings, spring.data.redis.ssl.bundle is used.
         */
        private @Nullable String sslBundle;

        /** Database index (overrides the URL's). */
        private @Nullable Integer database;

        /** How long to wait for one Redis answer before a call fails. */
        private Duration timeout = Duration.ofSeconds(5);

        /**
         * Whether the application must reach Redis to start. By default (false) an application
         * whose Redis is unreachable starts, reports distlock DOWN, fails lock calls at once, and
         * connects when Redis answers. A Redis that refuses the client's settings (credentials,
         * ACL permissions, database number, TLS certificate) stops startup either way.
         */
        private boolean requiredAtStartup;

        private final Sentinel sentinel = new Sentinel();

        private final Cluster cluster = new Cluster();

        public @Nullable String getUrl() {
            return url;
        }

        /** @param url the URL; blank counts as not set, so {@code url: ${REDIS_URL:}} works */
        public void setUrl(@Nullable String url) {
            this.url = blankToNull(url);
        }

        public @Nullable String getUsername() {
            return username;
        }

        public void setUsername(@Nullable String username) {
            this.username = username;
        }

        public @Nullable String getPassword() {
            return password;
        }

        public void setPassword(@Nullable String password) {
            this.password = password;
        }

        public boolean isSsl() {
            return ssl;
        }

        public void setSsl(boolean ssl) {
            this.ssl = ssl;
        }

        public @Nullable String getSslBundle() {
            return sslBundle;
        }

        /** @param sslBundle the bundle's name; blank counts as not set */
        public void setSslBundle(@Nullable String sslBundle) {
            this.sslBundle = blankToNull(sslBundle);
        }

        public @Nullable Integer getDatabase() {
            return database;
        }

        public void setDatabase(@Nullable Integer database) {
            this.database = database;
        }

        public Duration getTimeout() {
            return timeout;
        }

        public void setTimeout(Duration timeout) {
            this.timeout = timeout;
        }

        public boolean isRequiredAtStartup() {
            return requiredAtStartup;
        }

        public void setRequiredAtStartup(boolean requiredAtStartup) {
            this.requiredAtStartup = requiredAtStartup;
        }

        public Sentinel getSentinel() {
            return sentinel;
        }

        public Cluster getCluster() {
            return cluster;
        }

        /** @return whether any connection setting of distlock's own was given */
        boolean isConfigured() {
            return url != null || sentinel.master != null || !cluster.nodes.isEmpty();
        }

        @Override
        public String toString() {
            return "Redis[url=" + (url == null ? null : RedisUris.mask(url)) + ", username=" + username
                    + ", password=" + (password == null ? null : "***") + ", ssl=" + ssl + ", sslBundle=" + sslBundle
                    + ", database=" + database + ", timeout=" + timeout + "]";
        }
    }

    /** Redis Sentinel. */
    public static class Sentinel {

        /** Name of the master the sentinels monitor. */
        private @Nullable String master;

        /** Sentinel nodes as host:port. */
        private List<String> nodes = new ArrayList<>();

        public @Nullable String getMaster() {
            return master;
        }

        /** @param master the master name; blank counts as not set */
        public void setMaster(@Nullable String master) {
            this.master = blankToNull(master);
        }

        public List<String> getNodes() {
            return nodes;
        }

        public void setNodes(List<String> nodes) {
            this.nodes = nodes;
        }
    }

    /** Redis Cluster. */
    public static class Cluster {

        /** Cluster nodes as host:port (some or all). */
        private List<String> nodes = new ArrayList<>();

        public List<String> getNodes() {
            return nodes;
        }

        public void setNodes(List<String> nodes) {
            this.nodes = nodes;
        }
    }

    /** Lease renewal of locks taken without a lease time. */
    public static class Watchdog {

        /** Lease of watchdog-renewed locks; renewed every third of it. At least 100ms. */
        private Duration timeout = Duration.ofSeconds(30);

        public Duration getTimeout() {
            return timeout;
        }

        public void setTimeout(Duration timeout) {
            this.timeout = timeout;
        }
    }

    /** The {@code distlock.*} meters. */
    public static class Metrics {

        /**
         * Most distinct 'name' tags the distlock.* meters get; the meters of further
         * names are not registered, and one warning says so. Guards against names that carry keys.
         */
        private int maxNames = 100;

        public int getMaxNames() {
            return maxNames;
        }

        public void setMaxNames(int maxNames) {
            this.maxNames = maxNames;
        }
    }

    /** The {@code @DistributedLock} advice. */
    public static class Aspect {

        /**
         * Order of the lock advice among other advice; lower runs outside. The default runs outside
         * '@Transactional' (whose order is the lowest precedence), so the lock is taken before
         * the transaction begins and released after it ends.
         */
        private int order = Ordered.LOWEST_PRECEDENCE - 100;

        public int getOrder() {
            return order;
        }

        public void setOrder(int order) {
            this.order = order;
        }
    }

    /** The independent Redis masters of {@code @DistributedLock(type = RED_LOCK)}. */
    public static class Redlock {

        /**
         * One Redis URL per independent master (3 or 5 in practice), e.g.
         * redis://node1:6379 (rediss:// for TLS); each gets its own client. Key prefix, watchdog,
         * timeout and ssl-bundle are those of distlock.*.
         */
        private List<String> nodes = new ArrayList<>();

        public List<String> getNodes() {
            return nodes;
        }

        public void setNodes(List<String> nodes) {
            this.nodes = nodes;
        }
    }

    /**
     * Replica acknowledgements (Redis WAIT) of every acquisition and release, so a failover to an
     * acknowledging replica cannot lose them. Off by default.
     */
    public static class ReplicaAck {

        /**
         * Replicas that must acknowledge each acquisition and release; 0 (default) turns it off. An
         * acquisition fewer replicas acknowledge is released again and fails; a release is only
         * logged.
         */
        private int replicas;

        /** How long to wait for them; shorter than distlock.redis.timeout. */
        private Duration timeout = Duration.ofSeconds(1);

        public int getReplicas() {
            return replicas;
        }

        public void setReplicas(int replicas) {
            this.replicas = replicas;
        }

        public Duration getTimeout() {
            return timeout;
        }

        public void setTimeout(Duration timeout) {
            this.timeout = timeout;
        }
    }

    /**
     * How a lock that was not acquired in time ({@code LockAcquisitionException}) answers an HTTP
     * request to a Spring MVC or WebFlux controller: as a ProblemDetail (RFC 9457), never a 500.
     */
    public static class Web {

        /**
         * Whether a busy lock answers as a ProblemDetail; false leaves the exception to the
         * application and Spring. An '@ExceptionHandler' of the application wins either way.
         */
        private boolean enabled = true;

        /** HTTP status of the answer: 409 Conflict (default), or e.g. 423 Locked or 503 Service Unavailable. */
        private int busyStatus = 409;

        /** Retry-After of the answer, in whole seconds (rounded up); empty (default) sends none. */
        private @Nullable Duration retryAfter;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public int getBusyStatus() {
            return busyStatus;
        }

        public void setBusyStatus(int busyStatus) {
            this.busyStatus = busyStatus;
        }

        public @Nullable Duration getRetryAfter() {
            return retryAfter;
        }

        public void setRetryAfter(@Nullable Duration retryAfter) {
            this.retryAfter = retryAfter;
        }
    }

    private static @Nullable String blankToNull(@Nullable String value) {
        return value == null || value.isBlank() ? null : value;
    }
}

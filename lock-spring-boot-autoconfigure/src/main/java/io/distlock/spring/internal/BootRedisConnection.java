package io.distlock.spring.internal;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.ssl.SslBundle;

import java.util.List;

/**
 * What Spring Boot's Redis connection-details bean says, in terms that are the same on every Boot
 * generation. Boot's type differs by generation ({@code DataRedisConnectionDetails} on Boot 4,
 * {@code RedisConnectionDetails} on 3.5), so each generation has an adapter, compiled against it,
 * that reads Boot's bean into this and registers it as a bean: {@code internal.boot4} in the
 * auto-configuration, {@code internal.boot3} in {@code lock-spring-boot3-adapter}. The
 * auto-configuration makes the default {@code DistLockConnectionDetails} from it.
 *
 * @param type          the simple name of Boot's connection-details type, for messages
 * @param username      ACL user, or {@code null}
 * @param password      password, or {@code null}
 * @param standalone    one Redis server, or {@code null}
 * @param sentinel      a Sentinel-managed master, or {@code null}
 * @param clusterNodes  the seed nodes of a Redis Cluster as {@code host:port}; empty if none
 * @param masterReplica whether Boot describes a static master/replica setup, which distlock
 *                      cannot lock on (it cannot tell the master)
 * @param sslBundle     the trust material for TLS, or {@code null} for none
 */
public record BootRedisConnection(String type, @Nullable String username, @Nullable String password,
                                  @Nullable Standalone standalone, @Nullable Sentinel sentinel,
                                  List<String> clusterNodes, boolean masterReplica, @Nullable SslBundle sslBundle) {

    /**
     * @param type          as the record's
     * @param username      as the record's
     * @param password      as the record's
     * @param standalone    as the record's
     * @param sentinel      as the record's
     * @param clusterNodes  as the record's, copied
     * @param masterReplica as the record's
     * @param sslBundle     as the record's
     */
    public BootRedisConnection {
        clusterNodes = List.copyOf(clusterNodes);
    }

    /**
     * @param host a node's host as Spring Boot gives it (an IPv6 address keeps its brackets)
     * @param port its port
     * @return the node as {@code host:port}
     */
    public static String node(String host, int port) {
        return host + ":" + port;
    }

    /** Hides the passwords from {@code toString()} (logs, exception messages). */
    @Override
    public String toString() {
        return "BootRedisConnection[" + type + ", username=" + username + ", password=" + (password == null ? null
                : "***") + ", standalone=" + standalone + ", sentinel=" + sentinel + ", clusterNodes=" + clusterNodes
                + ", masterReplica=" + masterReplica + ", sslBundle=" + (sslBundle != null) + "]";
    }

    /**
     * @param host     host
     * @param port     port
     * @param database database index
     */
    public record Standalone(String host, int port, int database) {
    }

    /**
     * @param master   the master's name
     * @param nodes    the Sentinels as {@code host:port}
     * @param username ACL user the Sentinels ask for, or {@code null}
     * @param password password the Sentinels ask for, or {@code null}
     * @param database database index
     */
    public record Sentinel(String master, List<String> nodes, @Nullable String username, @Nullable String password,
                           int database) {

        /**
         * @param master   as the record's
         * @param nodes    as the record's, copied
         * @param username as the record's
         * @param password as the record's
         * @param database as the record's
         */
        public Sentinel {
            nodes = List.copyOf(nodes);
        }

        /** Hides the password from {@code toString()}. */
        @Override
        public String toString() {
            return "Sentinel[master=" + master + ", nodes=" + nodes + ", username=" + username + ", password="
                    + (password == null ? null : "***") + ", database=" + database + "]";
        }
    }
}

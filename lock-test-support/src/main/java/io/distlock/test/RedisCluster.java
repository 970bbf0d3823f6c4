package io.distlock.test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A Redis Cluster of real {@code redis-server} processes on loopback ports: {@code masters} nodes
 * sharing the 16384 slots evenly, joined with {@code CLUSTER ADDSLOTS} and {@code CLUSTER MEET}.
 * Always processes (also where Docker answers: cluster nodes must reach each other at the
 * addresses clients see); the binary follows {@link RedisMode} as for single servers.
 *
 * <pre>{@code
 * try (RedisCluster cluster = RedisCluster.start(3)) {
 *     RedisClusterClient.create(cluster.seedUri()) ...
 * }
 * }</pre>
 */
public final class RedisCluster implements AutoCloseable {

    /** Number of hash slots of a Redis Cluster. */
    public static final int SLOTS = 16384;

    private static final Duration FORMING = Duration.ofSeconds(30);

    private final List<RedisServer> nodes;

    private RedisCluster(List<RedisServer> nodes) {
        this.nodes = nodes;
    }

    /**
     * Starts and joins a cluster; waits until every node reports {@code cluster_state:ok}.
     *
     * @param masters number of master nodes, at least 1
     * @return the running cluster; the caller closes it
     */
    public static RedisCluster start(int masters) {
        RedisServerOptions defaults = RedisServerOptions.defaults();
        RedisMode mode = defaults.mode().resolve() == RedisMode.DOCKER ? RedisMode.PROCESS : defaults.mode();
        List<RedisServer> nodes = RedisServers.start(masters, defaults.withMode(mode)
                .withArgs("--cluster-enabled", "yes", "--cluster-node-timeout", "2000"));
        RedisCluster cluster = new RedisCluster(nodes);
        try {
            cluster.form();
        } catch (RuntimeException | AssertionError e) {
            RedisServers.closeAll(nodes);
            throw e;
        }
        return cluster;
    }

    private void form() {
        for (int i = 0; i < nodes.size(); i++) {
            int first = i * SLOTS / nodes.size();
            int last = (i + 1) * SLOTS / nodes.size() - 1;
            List<String> command = new ArrayList<>(List.of("CLUSTER", "ADDSLOTS"));
            for (int slot = first; slot <= last; slot++) {
                command.add(Integer.toString(slot));
            }
            nodes.get(i).command(command.toArray(String[]::new));
        }
        RedisServer seed = nodes.get(0);
        for (RedisServer node : nodes.subList(1, nodes.size())) {
            node.command("CLUSTER", "MEET", seed.host(), Integer.toString(seed.port()));
        }
        String knownNodes = "cluster_known_nodes:" + nodes.size();
        Polling.awaitTrue("the cluster formed (" + nodes + ")", FORMING, () -> nodes.stream().allMatch(node -> {
            String info = node.commandString("CLUSTER", "INFO");
            return info.contains("cluster_state:ok") && info.contains(knownNodes);
        }));
    }

    /** @return the nodes, in slot order (node 0 serves the lowest slots) */
    public List<RedisServer> nodes() {
        return nodes;
    }

    /** @return one node's URI, enough for a cluster client to discover the rest */
    public String seedUri() {
        return nodes.get(0).uri();
    }

    /** @return every node as {@code host:port} */
    public List<String> hostsAndPorts() {
        return nodes.stream().map(node -> node.host() + ":" + node.port()).toList();
    }

    /** @return the version the nodes report */
    public String version() {
        return nodes.get(0).version();
    }

    /** Deletes every key on every node. */
    public void flushAll() {
        nodes.forEach(RedisServer::flushAll);
    }

    @Override
    public void close() {
        RedisServers.closeAll(nodes);
    }

    @Override
    public String toString() {
        return "RedisCluster" + hostsAndPorts();
    }
}

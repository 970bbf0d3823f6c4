package io.distlock.test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Redis Cluster of real {@code redis-server} processes on loopback ports: {@code masters} shards
 * sharing the 16384 slots evenly, joined with {@code CLUSTER ADDSLOTS} and {@code CLUSTER MEET},
 * each optionally with replicas attached by {@code CLUSTER REPLICATE}. Always processes (also where
 * Docker answers: cluster nodes must reach each other at the addresses clients see); the binary
 * follows {@link RedisMode} as for single servers.
 *
 * <pre>{@code
 * try (RedisCluster cluster = RedisCluster.start(3, 1)) {   // 3 masters, 1 replica each
 *     RedisClusterClient.create(cluster.seedUri()) ...
 *     cluster.failover(0);                                  // shard 0's replica takes over
 * }
 * }</pre>
 */
public final class RedisCluster implements AutoCloseable {

    /** Number of hash slots of a Redis Cluster. */
    public static final int SLOTS = 16384;

    private static final Duration FORMING = Duration.ofSeconds(30);
    /** Redis gives up a manual failover after 5 s (CLUSTER_MF_TIMEOUT); a little more to notice. */
    private static final Duration MANUAL_FAILOVER_LIMIT = Duration.ofSeconds(7);
    private static final Pattern OFFSET = Pattern.compile("master_repl_offset:(\\d+)");

    private final List<Shard> shards;
    private final List<RedisServer> dead = new ArrayList<>();

    private RedisCluster(List<Shard> shards) {
        this.shards = shards;
    }

    /**
     * Starts and joins a cluster of masters only; waits until every node reports {@code cluster_state:ok}.
     *
     * @param masters number of master nodes, at least 1
     * @return the running cluster; the caller closes it
     */
    public static RedisCluster start(int masters) {
        return start(masters, 0);
    }

    /**
     * Starts and joins a cluster; waits until every node reports {@code cluster_state:ok} and every
     * replica's link to its master is up.
     *
     * @param masters           number of shards, at least 1
     * @param replicasPerMaster replicas of each shard, at least 0
     * @return the running cluster; the caller closes it
     */
    public static RedisCluster start(int masters, int replicasPerMaster) {
        if (replicasPerMaster < 0) {
            throw new IllegalArgumentException("replicasPerMaster must not be negative: " + replicasPerMaster);
        }
        RedisServerOptions defaults = RedisServerOptions.defaults();
        RedisMode mode = defaults.mode().resolve() == RedisMode.DOCKER ? RedisMode.PROCESS : defaults.mode();
        List<RedisServer> servers = RedisServers.start(masters * (1 + replicasPerMaster), defaults.withMode(mode)
                .withArgs("--cluster-enabled", "yes", "--cluster-node-timeout", "2000"));
        List<Shard> shards = new ArrayList<>();
        for (int i = 0; i < masters; i++) {
            int first = masters + i * replicasPerMaster;
            shards.add(new Shard(servers.get(i), new ArrayList<>(servers.subList(first, first + replicasPerMaster))));
        }
        RedisCluster cluster = new RedisCluster(shards);
        try {
            cluster.form(servers);
        } catch (RuntimeException | AssertionError e) {
            RedisServers.closeAll(servers);
            throw e;
        }
        return cluster;
    }

    private void form(List<RedisServer> servers) {
        for (int i = 0; i < shards.size(); i++) {
            int first = i * SLOTS / shards.size();
            int last = (i + 1) * SLOTS / shards.size() - 1;
            List<String> command = new ArrayList<>(List.of("CLUSTER", "ADDSLOTS"));
            for (int slot = first; slot <= last; slot++) {
                command.add(Integer.toString(slot));
            }
            shards.get(i).master.command(command.toArray(String[]::new));
        }
        RedisServer seed = servers.get(0);
        for (RedisServer node : servers.subList(1, servers.size())) {
            node.command("CLUSTER", "MEET", seed.host(), Integer.toString(seed.port()));
        }
        String knownNodes = "cluster_known_nodes:" + servers.size();
        Polling.awaitTrue("every node knows every other (" + servers + ")", FORMING, () -> servers.stream()
                .allMatch(node -> node.commandString("CLUSTER", "INFO").contains(knownNodes)));
        for (Shard shard : shards) {
            String masterId = shard.master.commandString("CLUSTER", "MYID");
            for (RedisServer replica : shard.replicas) {
                replica.command("CLUSTER", "REPLICATE", masterId);
            }
        }
        awaitHealthy();
    }

    private void awaitHealthy() {
        Polling.awaitTrue("the cluster is ok with every replica in sync (" + this + ")", FORMING, () -> {
            for (Shard shard : shards) {
                if (!shard.master.commandString("INFO", "replication").contains("role:master")) {
                    return false;
                }
                for (RedisServer replica : shard.replicas) {
                    String replication = replica.commandString("INFO", "replication");
                    if (!replication.contains("master_port:" + shard.master.port())
                            || !replication.contains("master_link_status:up")) {
                        return false;
                    }
                }
            }
            return allServers().stream()
                    .allMatch(node -> node.commandString("CLUSTER", "INFO").contains("cluster_state:ok"));
        });
    }

    /**
     * A manual failover of one shard ({@code CLUSTER FAILOVER} on its first replica): the master stops
     * taking writes, the replica catches up and takes over the slots, the old master becomes its
     * replica. Returns once the roles swapped, every node reports {@code cluster_state:ok} and the
     * new replica's link is up; a manual failover loses no acknowledged write.
     *
     * @param shard index of the shard, in slot order
     * @throws IllegalStateException if the shard has no replica
     */
    public void failover(int shard) {
        Shard target = shards.get(shard);
        if (target.replicas.isEmpty()) {
            throw new IllegalStateException("shard " + shard + " has no replica to fail over to");
        }
        RedisServer promoted = target.replicas.get(0);
        // A manual failover the replica cannot finish in time (the master's clients are paused at
        // most 5 s while it catches up; a loaded machine can miss that) is dropped without a word:
        // ask again until it happens.
        long deadline = System.nanoTime() + FORMING.toNanos();
        do {
            promoted.command("CLUSTER", "FAILOVER");
            if (Polling.within(MANUAL_FAILOVER_LIMIT,
                    () -> promoted.commandString("INFO", "replication").contains("role:master"))) {
                break;
            }
        } while (System.nanoTime() < deadline);
        Polling.awaitTrue(promoted + " took over shard " + shard, Duration.ZERO,
                () -> promoted.commandString("INFO", "replication").contains("role:master"));
        target.replicas.set(0, target.master);
        target.master = promoted;
        awaitHealthy();
    }

    /**
     * Kills a shard's master with SIGKILL, as a crash would; its first replica is elected in its
     * place once the other masters mark it failed (node timeout 2 s). Returns when the replica is
     * master and the surviving nodes report {@code cluster_state:ok}. The dead node stays dead
     * (and is closed with the cluster); the shard has one replica fewer.
     *
     * @param shard index of the shard
     * @return the replica that took over
     * @throws IllegalStateException if the shard has no replica
     */
    public RedisServer killMaster(int shard) {
        Shard target = shards.get(shard);
        if (target.replicas.isEmpty()) {
            throw new IllegalStateException("shard " + shard + " has no replica to take over");
        }
        RedisServer dead = target.master;
        RedisServer promoted = target.replicas.remove(0);
        dead.kill();
        this.dead.add(dead);
        Polling.awaitTrue(promoted + " was elected in place of the killed " + dead, FORMING,
                () -> promoted.commandString("INFO", "replication").contains("role:master"));
        target.master = promoted;
        awaitHealthy();
        return promoted;
    }

    /** @return the current master of each shard, in slot order (shard 0 serves the lowest slots) */
    public List<RedisServer> nodes() {
        return shards.stream().map(shard -> shard.master).toList();
    }

    /**
     * @param slot a hash slot
     * @return the index of the shard serving it (the slots are split evenly, in order)
     */
    public int shardOf(int slot) {
        if (slot < 0 || slot >= SLOTS) {
            throw new IllegalArgumentException("not a hash slot: " + slot);
        }
        int shard = 0;
        while (slot >= (shard + 1) * SLOTS / shards.size()) {
            shard++;
        }
        return shard;
    }

    /**
     * @param shard index of a shard
     * @return its current replicas
     */
    public List<RedisServer> replicasOf(int shard) {
        return List.copyOf(shards.get(shard).replicas);
    }

    /** @return the current replicas of every shard */
    public List<RedisServer> replicas() {
        return shards.stream().flatMap(shard -> shard.replicas.stream()).toList();
    }

    /** @return masters and replicas */
    public List<RedisServer> allServers() {
        List<RedisServer> all = new ArrayList<>(nodes());
        all.addAll(replicas());
        return all;
    }

    /** @return one node's URI, enough for a cluster client to discover the rest */
    public String seedUri() {
        return nodes().get(0).uri();
    }

    /** @return every master as {@code host:port} */
    public List<String> hostsAndPorts() {
        return nodes().stream().map(node -> node.host() + ":" + node.port()).toList();
    }

    /** @return the version the nodes report */
    public String version() {
        return shards.get(0).master.version();
    }

    /**
     * Deletes every key on every master and waits until the replicas have it too.
     */
    public void flushAll() {
        for (Shard shard : shards) {
            shard.master.flushAll();
            if (!shard.replicas.isEmpty()) {
                Matcher offset = OFFSET.matcher(shard.master.commandString("INFO", "replication"));
                String target = offset.find() ? offset.group(1) : "0";
                Polling.awaitTrue("replicas of " + shard.master + " flushed", FORMING, () -> shard.replicas.stream()
                        .allMatch(replica -> offsetReached(replica, Long.parseLong(target))));
            }
        }
    }

    private static boolean offsetReached(RedisServer replica, long target) {
        Matcher offset = OFFSET.matcher(replica.commandString("INFO", "replication"));
        return offset.find() && Long.parseLong(offset.group(1)) >= target;
    }

    @Override
    public void close() {
        List<RedisServer> all = allServers();
        all.addAll(dead);
        RedisServers.closeAll(all);
    }

    @Override
    public String toString() {
        return "RedisCluster[masters=" + hostsAndPorts() + ", replicas="
                + replicas().stream().map(node -> node.host() + ":" + node.port()).toList() + "]";
    }

    /** A master and its replicas; the roles swap on failover. */
    private static final class Shard {
        private volatile RedisServer master;
        private final List<RedisServer> replicas;

        Shard(RedisServer master, List<RedisServer> replicas) {
            this.master = master;
            this.replicas = replicas;
        }
    }
}

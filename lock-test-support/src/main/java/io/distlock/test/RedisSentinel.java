package io.distlock.test;

import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * A Sentinel-managed Redis of real processes on loopback ports: one master, its replicas, and
 * Sentinels watching them under {@link #MASTER_NAME}. Always processes, like {@link RedisCluster}.
 * The Sentinels declare a master down after one second and may fail over again three seconds
 * after a failover, so tests stay quick.
 *
 * <pre>{@code
 * try (RedisSentinel sentinel = RedisSentinel.start(1, 3)) {
 *     RedisURI uri = RedisURI.create(sentinel.sentinelUri());   // redis-sentinel://...#mymaster
 *     sentinel.failover();                                      // the replica becomes master
 * }
 * }</pre>
 */
public final class RedisSentinel implements AutoCloseable {

    /** The name the Sentinels know the master by. */
    public static final String MASTER_NAME = "mymaster";

    private static final Duration SETTLING = Duration.ofSeconds(30);

    private final List<RedisServer> dataNodes;
    private final List<RedisServer> sentinels;

    private RedisSentinel(List<RedisServer> dataNodes, List<RedisServer> sentinels) {
        this.dataNodes = dataNodes;
        this.sentinels = sentinels;
    }

    /**
     * Starts a master, its replicas and the Sentinels (quorum: a majority of them), and waits until
     * every Sentinel knows the master, every replica and every other Sentinel.
     *
     * @param replicas  number of replicas, at least 1 (a failover needs one)
     * @param sentinels number of Sentinels, at least 1
     * @return the running set; the caller closes it
     */
    public static RedisSentinel start(int replicas, int sentinels) {
        if (replicas < 1 || sentinels < 1) {
            throw new IllegalArgumentException("need at least one replica and one Sentinel: " + replicas + ", "
                    + sentinels);
        }
        RedisServerOptions defaults = RedisServerOptions.defaults();
        RedisServerOptions options = defaults.mode().resolve() == RedisMode.DOCKER
                ? defaults.withMode(RedisMode.PROCESS) : defaults;
        List<RedisServer> started = new ArrayList<>();
        try {
            RedisServer master = RedisServers.start(options);
            started.add(master);
            List<RedisServer> dataNodes = new ArrayList<>(List.of(master));
            for (int i = 0; i < replicas; i++) {
                RedisServer replica = RedisServers.start(options.withArgs("--replicaof", master.host(),
                        Integer.toString(master.port())));
                started.add(replica);
                dataNodes.add(replica);
            }
            List<RedisServer> watching = new ArrayList<>();
            String quorum = Integer.toString(sentinels / 2 + 1);
            for (int i = 0; i < sentinels; i++) {
                RedisServer sentinel = RedisServers.start(options.withArgs(
                        "--sentinel", "monitor", MASTER_NAME, master.host(), Integer.toString(master.port()), quorum,
                        "--sentinel", "down-after-milliseconds", MASTER_NAME, "1000",
                        "--sentinel", "failover-timeout", MASTER_NAME, "3000"));
                started.add(sentinel);
                watching.add(sentinel);
            }
            RedisSentinel set = new RedisSentinel(dataNodes, watching);
            set.awaitSettled(master);
            return set;
        } catch (RuntimeException | AssertionError e) {
            RedisServers.closeAll(started);
            throw e;
        }
    }

    private void awaitSettled(RedisServer master) {
        String replicas = Integer.toString(dataNodes.size() - 1);
        String others = Integer.toString(sentinels.size() - 1);
        Polling.awaitTrue("every Sentinel sees " + master + ", its replicas and the other Sentinels", SETTLING,
                () -> sentinels.stream().allMatch(sentinel -> {
                    Map<String, String> state = fields(sentinel.command("SENTINEL", "MASTER", MASTER_NAME));
                    return state.get("port").equals(Integer.toString(master.port()))
                            && state.get("num-slaves").equals(replicas) && state.get("num-other-sentinels").equals(others)
                            && !state.get("flags").contains("down") && replicasLookHealthy(sentinel);
                }));
        Polling.awaitTrue("the replicas are in sync with " + master, SETTLING, () -> dataNodes.stream()
                .filter(node -> node != master)
                .allMatch(node -> whileReconfiguring(() -> node.commandString("INFO", "replication")
                        .contains("master_link_status:up"))));
    }

    /**
     * A data node the Sentinels are reconfiguring drops its clients (ours too): that is "not yet",
     * not a failure.
     */
    private static boolean whileReconfiguring(BooleanSupplier check) {
        try {
            return check.getAsBoolean();
        } catch (UncheckedIOException dropped) {
            return false;
        }
    }

    private static boolean replicasLookHealthy(RedisServer sentinel) {
        for (Object replica : (List<?>) sentinel.command("SENTINEL", "REPLICAS", MASTER_NAME)) {
            String flags = fields(replica).get("flags");
            if (flags.contains("down") || flags.contains("disconnected")) {
                return false;
            }
        }
        return true;
    }

    private static Map<String, String> fields(Object reply) {
        List<?> fields = (List<?>) reply;
        Map<String, String> state = new HashMap<>();
        for (int i = 0; i + 1 < fields.size(); i += 2) {
            state.put(String.valueOf(fields.get(i)), String.valueOf(fields.get(i + 1)));
        }
        return state;
    }

    /**
     * Forces a failover ({@code SENTINEL FAILOVER}): a replica is promoted and the old master
     * reconfigured as its replica. Returns when every Sentinel names the new master and the old one
     * replicates from it.
     *
     * @return the new master
     */
    public RedisServer failover() {
        RedisServer old = master();
        // Refused (NOGOODSLAVE, INPROG) while a replica was lately unreachable or a failover runs: retry.
        Polling.awaitTrue("a Sentinel accepted SENTINEL FAILOVER", SETTLING, () -> {
            try {
                sentinels.get(0).command("SENTINEL", "FAILOVER", MASTER_NAME);
                return true;
            } catch (RedisReplyException refused) {
                return false;
            }
        });
        Polling.awaitTrue("the Sentinels name a new master", SETTLING,
                () -> sentinels.stream().allMatch(sentinel -> masterPort(sentinel) != old.port()));
        RedisServer promoted = master();
        awaitSettled(promoted);
        Polling.awaitTrue(old + " replicates from " + promoted, SETTLING, () -> whileReconfiguring(() -> {
            String replication = old.commandString("INFO", "replication");
            return replication.contains("master_port:" + promoted.port())
                    && replication.contains("master_link_status:up");
        }));
        return promoted;
    }

    /** @return the data node the first Sentinel names as master now */
    public RedisServer master() {
        int port = masterPort(sentinels.get(0));
        return dataNodes.stream().filter(node -> node.port() == port).findFirst()
                .orElseThrow(() -> new IllegalStateException("the Sentinels name an unknown master on port " + port));
    }

    private static int masterPort(RedisServer sentinel) {
        List<?> address = (List<?>) sentinel.command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", MASTER_NAME);
        return Integer.parseInt(String.valueOf(address.get(1)));
    }

    /** @return the data nodes that are replicas now */
    public List<RedisServer> replicas() {
        RedisServer master = master();
        return dataNodes.stream().filter(node -> node != master).toList();
    }

    /** @return the Sentinel processes */
    public List<RedisServer> sentinels() {
        return sentinels;
    }

    /** @return the Sentinels as {@code host:port} */
    public List<String> sentinelHostsAndPorts() {
        return sentinels.stream().map(sentinel -> sentinel.host() + ":" + sentinel.port()).toList();
    }

    /**
     * @return a Lettuce-style Sentinel URI naming every Sentinel and the master,
     *         {@code redis-sentinel://host:p1,host:p2,host:p3#mymaster}
     */
    public String sentinelUri() {
        return "redis-sentinel://" + String.join(",", sentinelHostsAndPorts()) + "#" + MASTER_NAME;
    }

    /** @return the version the servers report */
    public String version() {
        return dataNodes.get(0).version();
    }

    /** Deletes every key on the master (the replicas follow). */
    public void flushAll() {
        master().flushAll();
    }

    @Override
    public void close() {
        List<RedisServer> all = new ArrayList<>(sentinels);
        all.addAll(dataNodes);
        RedisServers.closeAll(all);
    }

    @Override
    public String toString() {
        return "RedisSentinel[data=" + dataNodes.stream().map(RedisServer::port).toList() + ", sentinels="
                + sentinels.stream().map(RedisServer::port).toList() + "]";
    }
}

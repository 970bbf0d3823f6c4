package io.distlock.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Picks free loopback ports and remembers which ones belong to live servers of this JVM, so that a
 * stopped server's port is not handed to another server before it restarts.
 */
final class FreePorts {

    /** A cluster node also listens on its port + 10000 (the cluster bus). */
    static final int CLUSTER_BUS_OFFSET = 10_000;

    private static final Set<Integer> RESERVED = ConcurrentHashMap.newKeySet();

    private FreePorts() {
    }

    static int reserve() {
        for (int attempt = 0; attempt < 50; attempt++) {
            int port = probe();
            if (RESERVED.add(port)) {
                return port;
            }
        }
        throw new IllegalStateException("Cannot find a free loopback port");
    }

    /**
     * Reserves a port for a Redis Cluster node: at most 55535, with the cluster bus port (10000
     * higher) free too.
     *
     * @return the node's port
     */
    static int reserveWithClusterBus() {
        for (int attempt = 0; attempt < 200; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(20_000, 55_536);
            if (isFree(port) && isFree(port + CLUSTER_BUS_OFFSET) && RESERVED.add(port)) {
                if (RESERVED.add(port + CLUSTER_BUS_OFFSET)) {
                    return port;
                }
                RESERVED.remove(port);
            }
        }
        throw new IllegalStateException("Cannot find a free loopback port pair for a cluster node");
    }

    static void release(int port) {
        RESERVED.remove(port);
    }

    private static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int probe() {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot probe for a free port", e);
        }
    }
}

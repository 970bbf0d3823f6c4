package io.distlock.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Picks free loopback ports and remembers which ones belong to live servers of this JVM, so that a
 * stopped server's port is not handed to another server before it restarts.
 */
final class FreePorts {

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

    static void release(int port) {
        RESERVED.remove(port);
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

package io.distlock.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

/** Ports of this machine: a free one to listen on, and whether one is taken. */
public final class LocalPorts {

    private LocalPorts() {
    }

    /** @return a port nothing listens on now */
    public static int free() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("No free port on this machine", e);
        }
    }

    /**
     * @param port a port
     * @return whether something accepts connections on it at localhost
     */
    public static boolean listening(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("localhost", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}

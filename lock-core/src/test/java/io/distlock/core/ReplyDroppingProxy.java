package io.distlock.core;

import com.google.errorprone.annotations.concurrent.GuardedBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A TCP proxy in front of a Redis server that can lose an answer: after
 * {@link #dropNextReplyAndDisconnect()}, the next bytes Redis sends to any client are not passed
 * on, and that client's connection is closed instead. The command ran in Redis, the client never
 * heard of it: what a connection drop between execution and reply looks like to a client. It can
 * also hold every reply back for a while ({@link #delayReplies(long)}): a slow network; and keep
 * new connections from reaching Redis ({@link #holdNewConnections()}): a reconnect, and what the
 * client sends again on it, waits until the test lets it through. And it can reset connections
 * (TCP RST): those open now ({@link #resetConnections()}), and each new one as soon as the client
 * speaks on it ({@link #resetNewConnections()}), so every reconnect fails until
 * {@link #passNewConnections()}; or close them ({@link #closeConnections()}). Shared with other
 * modules' tests through lock-core's test jar.
 */
public final class ReplyDroppingProxy implements AutoCloseable {

    private final String targetHost;
    private final int targetPort;
    private final ServerSocket listener;
    private final AtomicBoolean dropNextReply = new AtomicBoolean();
    private volatile long replyDelayMillis;
    /** What becomes of a new connection. */
    private enum Admission { PASS, HOLD, RESET }

    @GuardedBy("this")
    private Admission admission = Admission.PASS;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    /** The clients' ends of the connections passed on (a subset of {@link #sockets}). */
    private final List<Socket> clientSockets = new CopyOnWriteArrayList<>();

    /**
     * @param targetHost the Redis server's host
     * @param targetPort the Redis server's port
     */
    public ReplyDroppingProxy(String targetHost, int targetPort) {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        try {
            this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot open the proxy's port", e);
        }
        daemon("proxy-accept", this::accept);
    }

    /** @return the URI clients connect to instead of the server's */
    public String uri() {
        return "redis://127.0.0.1:" + listener.getLocalPort();
    }

    /** The next answer Redis gives is swallowed and its connection closed. */
    public void dropNextReplyAndDisconnect() {
        dropNextReply.set(true);
    }

    /** @return whether an answer was swallowed since the last {@link #dropNextReplyAndDisconnect()} */
    public boolean dropped() {
        return !dropNextReply.get();
    }

    /** @param millis how long each reply is held back from now on; 0: passed on at once */
    public void delayReplies(long millis) {
        replyDelayMillis = millis;
    }

    /** Connections accepted from now on wait, before reaching Redis, until {@link #passNewConnections()}. */
    public synchronized void holdNewConnections() {
        admission = Admission.HOLD;
    }

    /** Connections accepted from now on are reset as soon as the client sends on them. */
    public synchronized void resetNewConnections() {
        admission = Admission.RESET;
    }

    /** Connections held back, and those accepted from now on, reach Redis. */
    public synchronized void passNewConnections() {
        admission = Admission.PASS;
        notifyAll();
    }

    /**
     * Closes every client connection open now, dropping what it had on its way: the client sees
     * its connection end (not fail), and Lettuce sends the commands still unanswered again once
     * reconnected.
     */
    public void closeConnections() {
        clientSockets.forEach(ReplyDroppingProxy::closeQuietly);
    }

    /** Resets (TCP RST) every client connection open now, dropping what it had on its way. */
    public void resetConnections() {
        clientSockets.forEach(ReplyDroppingProxy::reset);
    }

    /** @return once the connection may go on: whether it is passed on (else it is reset) */
    private synchronized boolean awaitPassage() throws InterruptedException {
        while (admission == Admission.HOLD && !listener.isClosed()) {
            wait(100);
        }
        return admission == Admission.PASS;
    }

    @Override
    public void close() {
        closeQuietly(listener);
        sockets.forEach(ReplyDroppingProxy::closeQuietly);
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                sockets.add(client);
                if (!awaitPassage()) {
                    daemon("proxy-reset", () -> resetOnceSpokenTo(client));
                    continue;
                }
                Socket server = new Socket(targetHost, targetPort);
                clientSockets.add(client);
                sockets.add(server);
                daemon("proxy-up", () -> pump(client, server, false));
                daemon("proxy-down", () -> pump(server, client, true));
            } catch (IOException e) {
                return;  // closed
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void pump(Socket from, Socket to, boolean replies) {
        byte[] buffer = new byte[8192];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            int read;
            while ((read = in.read(buffer)) >= 0) {
                if (replies && dropNextReply.compareAndSet(true, false)) {
                    break;
                }
                long delay = replies ? replyDelayMillis : 0;
                if (delay > 0) {
                    Thread.sleep(delay);
                }
                out.write(buffer, 0, read);
                out.flush();
            }
        } catch (IOException e) {
            // one side closed: close the other below
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    /** Resets the connection once the client sent something: the failure comes mid-handshake. */
    private static void resetOnceSpokenTo(Socket client) {
        try {
            client.setSoTimeout(5_000);
            client.getInputStream().read();
        } catch (IOException e) {
            // closed or silent: reset it all the same
        }
        reset(client);
    }

    private static void reset(Socket socket) {
        try {
            socket.setSoLinger(true, 0);
        } catch (IOException e) {
            // already closed
        }
        closeQuietly(socket);
    }

    private static void daemon(String name, Runnable task) {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        thread.start();
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception ignored) {
            // closing anyway
        }
    }
}

package io.distlock.test;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/**
 * A minimal, blocking RESP2 connection over a plain or TLS socket, for tests that need to talk to Redis
 * without a client library ({@code FLUSHALL}, {@code INFO commandstats}, {@code CLIENT KILL}, ...).
 *
 * <p>Replies are mapped as follows: simple string and bulk string to {@link String}, integer to
 * {@link Long}, array to {@link List}, null bulk/array to {@code null}; an error reply throws
 * {@link RedisReplyException}. Connection failures and read timeouts throw {@link UncheckedIOException}.
 * Instances are not thread-safe.
 */
public final class RespConnection implements AutoCloseable {

    private final String endpoint;
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    private RespConnection(String endpoint, Socket socket) throws IOException {
        this.endpoint = endpoint;
        this.socket = socket;
        this.in = new BufferedInputStream(socket.getInputStream());
        this.out = new BufferedOutputStream(socket.getOutputStream());
    }

    /**
     * Opens a connection; {@code timeout} bounds both the TCP connect and every later read.
     *
     * @param host    host name or address
     * @param port    TCP port
     * @param timeout connect and read timeout, must be positive
     * @return the open connection
     * @throws UncheckedIOException if the connection cannot be established
     */
    public static RespConnection open(String host, int port, Duration timeout) {
        String endpoint = host + ":" + port;
        int millis = toMillis(timeout);
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(host, port), millis);
            socket.setSoTimeout(millis);
            return new RespConnection(endpoint, socket);
        } catch (IOException e) {
            closeQuietly(socket);
            throw new UncheckedIOException("Cannot connect to Redis at " + endpoint + ": " + e, e);
        }
    }

    /**
     * Opens a TLS connection; {@code timeout} bounds the TCP connect, the handshake and every later read.
     *
     * @param host    host name or address
     * @param port    TLS port of the server
     * @param timeout connect, handshake and read timeout, must be positive
     * @param tls     the context whose trust managers decide whether the server's certificate is accepted
     * @return the open connection
     * @throws UncheckedIOException if the connection or the handshake fails
     */
    public static RespConnection openTls(String host, int port, Duration timeout, SSLContext tls) {
        String endpoint = host + ":" + port;
        int millis = toMillis(timeout);
        Socket plain = new Socket();
        try {
            plain.setTcpNoDelay(true);
            plain.connect(new InetSocketAddress(host, port), millis);
            plain.setSoTimeout(millis);
            SSLSocket socket = (SSLSocket) tls.getSocketFactory().createSocket(plain, host, port, true);
            try {
                socket.startHandshake();
            } catch (IOException e) {
                closeQuietly(socket);
                throw e;
            }
            return new RespConnection(endpoint, socket);
        } catch (IOException e) {
            closeQuietly(plain);
            throw new UncheckedIOException("Cannot connect with TLS to Redis at " + endpoint + ": " + e, e);
        }
    }

    /**
     * Sends {@code AUTH username password} (an ACL user) and checks the reply.
     *
     * @param username the ACL user
     * @param password its password
     * @return this connection
     * @throws RedisReplyException if authentication is rejected
     */
    public RespConnection auth(String username, String password) {
        call("AUTH", username, password);
        return this;
    }

    /**
     * Sends {@code AUTH password} and checks the reply.
     *
     * @param password the password configured with {@code requirepass}
     * @return this connection
     * @throws RedisReplyException if authentication is rejected
     */
    public RespConnection auth(String password) {
        call("AUTH", password);
        return this;
    }

    /**
     * Changes the read timeout of later replies.
     *
     * @param timeout the new read timeout, must be positive
     * @return this connection
     */
    public RespConnection readTimeout(Duration timeout) {
        try {
            socket.setSoTimeout(toMillis(timeout));
        } catch (IOException e) {
            throw failure("set timeout", e);
        }
        return this;
    }

    /**
     * Sends one command and returns its parsed reply.
     *
     * @param args the command name followed by its arguments
     * @return the reply: {@link String}, {@link Long}, {@link List} or {@code null}
     * @throws RedisReplyException if the server answers with an error
     * @throws UncheckedIOException on I/O failure or read timeout
     */
    public Object call(String... args) {
        send(args);
        return readReply();
    }

    /**
     * Sends one command without waiting for the reply (pipelining, subscriptions).
     *
     * @param args the command name followed by its arguments
     * @throws UncheckedIOException on I/O failure
     */
    public void send(String... args) {
        if (args.length == 0) {
            throw new IllegalArgumentException("A Redis command needs at least a name");
        }
        try {
            writeAscii("*" + args.length + "\r\n");
            for (String arg : args) {
                byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
                writeAscii("$" + bytes.length + "\r\n");
                out.write(bytes);
                writeAscii("\r\n");
            }
            out.flush();
        } catch (IOException e) {
            throw failure("send " + args[0], e);
        }
    }

    /**
     * Reads and parses the next reply.
     *
     * @return the reply: {@link String}, {@link Long}, {@link List} or {@code null}
     * @throws RedisReplyException if the reply is an error
     * @throws UncheckedIOException on I/O failure or read timeout
     */
    public Object readReply() {
        try {
            return parse();
        } catch (IOException e) {
            throw failure("read reply", e);
        }
    }

    /** Closes the socket; never throws. */
    @Override
    public void close() {
        closeQuietly(socket);
    }

    private Object parse() throws IOException {
        int type = in.read();
        if (type < 0) {
            throw new EOFException("connection closed by server");
        }
        String line = readLine();
        return switch (type) {
            case '+' -> line;
            case '-' -> throw new RedisReplyException(line);
            case ':' -> Long.parseLong(line);
            case '$' -> readBulk(Integer.parseInt(line));
            case '*' -> readArray(Integer.parseInt(line));
            default -> throw new IOException("Unexpected RESP type byte '" + (char) type + "' followed by: " + line);
        };
    }

    private String readBulk(int length) throws IOException {
        if (length < 0) {
            return null;
        }
        byte[] data = in.readNBytes(length);
        if (data.length != length) {
            throw new EOFException("connection closed inside a bulk string");
        }
        readLine();
        return new String(data, StandardCharsets.UTF_8);
    }

    private List<Object> readArray(int size) throws IOException {
        if (size < 0) {
            return null;
        }
        List<Object> items = new ArrayList<>(size);
        RedisReplyException firstError = null;
        for (int i = 0; i < size; i++) {
            try {
                items.add(parse());
            } catch (RedisReplyException e) {
                // keep the stream in sync: consume the whole array, then report the error
                items.add(null);
                firstError = firstError == null ? e : firstError;
            }
        }
        if (firstError != null) {
            throw firstError;
        }
        return items;
    }

    private String readLine() throws IOException {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream(32);
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("connection closed inside a reply line");
            }
            if (b == '\r') {
                int next = in.read();
                if (next == '\n') {
                    return buffer.toString(StandardCharsets.UTF_8);
                }
                buffer.write(b);
                if (next < 0) {
                    throw new EOFException("connection closed inside a reply line");
                }
                buffer.write(next);
            } else {
                buffer.write(b);
            }
        }
    }

    private void writeAscii(String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.US_ASCII));
    }

    private UncheckedIOException failure(String action, IOException e) {
        return new UncheckedIOException("Redis at " + endpoint + ": cannot " + action + ": " + e, e);
    }

    private static int toMillis(Duration timeout) {
        long millis = timeout.toMillis();
        if (millis <= 0) {
            throw new IllegalArgumentException("timeout must be positive: " + timeout);
        }
        return (int) Math.min(Integer.MAX_VALUE, millis);
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // nothing useful to do
        }
    }
}

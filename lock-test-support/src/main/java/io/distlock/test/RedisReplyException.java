package io.distlock.test;

/**
 * An error reply ({@code -ERR ...}, {@code -NOAUTH ...}, ...) returned by a Redis server to a raw command.
 */
public final class RedisReplyException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The error text as sent by the server. */
    private final String reply;

    /**
     * Creates the exception for one error reply.
     *
     * @param reply the error text as sent by the server, without the leading {@code -}
     */
    public RedisReplyException(String reply) {
        super("Redis replied with an error: " + reply);
        this.reply = reply;
    }

    /**
     * Returns the error text as sent by the server, e.g. {@code "NOAUTH Authentication required."}.
     *
     * @return the error reply
     */
    public String reply() {
        return reply;
    }
}

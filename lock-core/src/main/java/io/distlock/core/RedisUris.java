package io.distlock.core;

/**
 * Hides credentials in Redis URIs before they appear in messages and logs.
 */
public final class RedisUris {

    private RedisUris() {
    }

    /**
     * @param uri a Redis URI, possibly with {@code user:password@}
     * @return the URI with the user info replaced by {@code ***}
     */
    public static String mask(String uri) {
        int scheme = uri.indexOf("://");
        int at = uri.lastIndexOf('@');
        if (scheme < 0 || at < scheme) {
            return uri;
        }
        return uri.substring(0, scheme + 3) + "***" + uri.substring(at);
    }

    /**
     * Says why a URI could not be parsed without repeating it: parsers quote the whole input in
     * their messages, credentials included (e.g. "Malformed escape pair at index 11: redis://:p%zz@host").
     *
     * @param uri     the URI that failed to parse
     * @param failure what the parser threw
     * @return the failure's message with every copy of the URI masked, or only the failure's type
     *         when the message still holds the URI's user info in another form
     */
    public static String parseFailure(String uri, RuntimeException failure) {
        String message = String.valueOf(failure.getMessage()).replace(uri, mask(uri));
        int scheme = uri.indexOf("://");
        int at = uri.lastIndexOf('@');
        if (scheme >= 0 && at > scheme + 3 && message.contains(uri.substring(scheme + 3, at))) {
            return failure.getClass().getSimpleName();
        }
        return message;
    }
}

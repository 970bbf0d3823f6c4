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
}

package io.distlock.benchmarks;

/** Escapes text for XML and HTML documents, for element content and quoted attribute values alike. */
final class Xml {

    private Xml() {
    }

    /**
     * @param text any text
     * @return it with {@code & < > " '} as character references, and characters XML 1.0 does not
     *         allow (control characters other than tab, line feed and carriage return; unpaired
     *         surrogates; U+FFFE, U+FFFF) replaced by U+FFFD
     */
    static String escape(String text) {
        StringBuilder escaped = new StringBuilder(text.length() + 16);
        text.codePoints().forEach(c -> {
            switch (c) {
                case '&' -> escaped.append("&amp;");
                case '<' -> escaped.append("&lt;");
                case '>' -> escaped.append("&gt;");
                case '"' -> escaped.append("&quot;");
                case '\'' -> escaped.append("&#39;");
                default -> escaped.appendCodePoint(allowed(c) ? c : '\uFFFD');
            }
        });
        return escaped.toString();
    }

    private static boolean allowed(int c) {
        return c == '\t' || c == '\n' || c == '\r' || (c >= 0x20 && c < 0xD800) || (c >= 0xE000 && c < 0xFFFE)
                || c >= 0x10000;
    }
}

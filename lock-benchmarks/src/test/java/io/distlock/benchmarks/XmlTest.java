package io.distlock.benchmarks;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Escaping of text for the HTML report and its SVG charts. */
class XmlTest {

    @Test
    void markupCharactersBecomeReferences() {
        assertThat(Xml.escape("a < b & c > \"d\" 'e'")).isEqualTo("a &lt; b &amp; c &gt; &quot;d&quot; &#39;e&#39;");
    }

    @Test
    void otherTextIsKeptIncludingNonAsciiAndWhitespace() {
        assertThat(Xml.escape("µs\t→ 😀\n")).isEqualTo("µs\t→ 😀\n");
    }

    @Test
    void charactersXmlDoesNotAllowAreReplaced() {
        assertThat(Xml.escape("a\u0000b\u001bc\uFFFE" + '\uD800')).isEqualTo("a\uFFFDb\uFFFDc\uFFFD\uFFFD");
    }
}

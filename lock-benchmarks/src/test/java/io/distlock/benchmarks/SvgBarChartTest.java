package io.distlock.benchmarks;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.data.Offset.offset;

/** The SVG drawing of a bar chart, parsed back with the JDK's XML parser. */
@Timeout(10)
class SvgBarChartTest {

    private static final BarChart CHART = new BarChart("Throughput", "operations per second",
            List.of("ours", "theirs"), List.of(
                    new BarChart.Group("first", List.of(new BarChart.Bar(400, "400/s"),
                            new BarChart.Bar(100, "100/s"))),
                    new BarChart.Group("second", List.of(new BarChart.Bar(200, "200/s"), new BarChart.Bar(0, "0/s")))));

    @Test
    void isAStandaloneSvgDocumentWithAWhiteBackground() {
        String svg = SvgBarChart.render(CHART);

        Document document = XmlDocuments.parse(svg);
        Element root = document.getDocumentElement();
        assertThat(root.getLocalName()).isEqualTo("svg");
        assertThat(root.getNamespaceURI()).isEqualTo("http://www.w3.org/2000/svg");
        assertThat(svg).as("no XML declaration, so that it can be inlined in HTML").startsWith("<svg ");
        Element background = XmlDocuments.elements(document, "rect").get(0);
        assertThat(background.getAttribute("fill")).isEqualTo("#ffffff");
        assertThat(background.getAttribute("width")).isEqualTo(root.getAttribute("width"));
        assertThat(background.getAttribute("height")).isEqualTo(root.getAttribute("height"));
    }

    @Test
    void barLengthsAreProportionalToTheValuesOnOneScaleFromZero() {
        Document document = XmlDocuments.parse(SvgBarChart.render(CHART));
        List<Element> bars = bars(document);

        assertThat(bars).hasSize(4);
        double largest = width(bars.get(0));
        assertThat(largest).isGreaterThan(100);
        assertThat(width(bars.get(1)) / largest).isCloseTo(0.25, offset(1e-3));
        assertThat(width(bars.get(2)) / largest).isCloseTo(0.5, offset(1e-3));
        assertThat(width(bars.get(3))).isZero();
        assertThat(bars).extracting(bar -> bar.getAttribute("x")).containsOnly(bars.get(0).getAttribute("x"));
        assertThat(Double.parseDouble(bars.get(0).getAttribute("x")) + largest).as("the longest bar ends inside")
                .isLessThan(Double.parseDouble(document.getDocumentElement().getAttribute("width")));
    }

    @Test
    void eachSeriesHasOneColourAcrossGroups() {
        List<Element> bars = bars(XmlDocuments.parse(SvgBarChart.render(CHART)));

        assertThat(bars.get(0).getAttribute("fill")).isEqualTo(bars.get(2).getAttribute("fill"))
                .isNotEqualTo(bars.get(1).getAttribute("fill"));
        assertThat(bars.get(1).getAttribute("fill")).isEqualTo(bars.get(3).getAttribute("fill"));
    }

    @Test
    void valuesThatAreNotPositiveAndFiniteDrawNoBar() {
        BarChart chart = new BarChart("t", "", List.of("a", "b", "c"), List.of(new BarChart.Group("g", List.of(
                new BarChart.Bar(Double.NaN, "n/a"), new BarChart.Bar(-5, "-5"), new BarChart.Bar(10, "10")))));

        List<Element> bars = bars(XmlDocuments.parse(SvgBarChart.render(chart)));

        assertThat(width(bars.get(0))).isZero();
        assertThat(width(bars.get(1))).isZero();
        assertThat(width(bars.get(2))).isPositive();
    }

    @Test
    void everyTextIsEscapedAndReadsBackUnchanged() {
        String hostile = "<script>alert('x')</script> & \"quoted\"";
        BarChart chart = new BarChart("title " + hostile, "subtitle " + hostile, List.of("series " + hostile),
                List.of(new BarChart.Group("group " + hostile, List.of(new BarChart.Bar(1, "label " + hostile)))));

        String svg = SvgBarChart.render(chart);

        assertThat(svg).doesNotContain("<script>").contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; "
                + "&quot;quoted&quot;");
        List<String> texts = XmlDocuments.elements(XmlDocuments.parse(svg), "text").stream()
                .map(Element::getTextContent).toList();
        assertThat(texts).contains("title " + hostile, "subtitle " + hostile, "series " + hostile,
                "group " + hostile, "label " + hostile);
    }

    @Test
    void longLabelsWidenTheChartInsteadOfSqueezingTheBars() {
        String longLabel = "x".repeat(200);
        BarChart chart = new BarChart("t", "", List.of("a"),
                List.of(new BarChart.Group("g", List.of(new BarChart.Bar(1, longLabel)))));

        Document document = XmlDocuments.parse(SvgBarChart.render(chart));

        assertThat(Integer.parseInt(document.getDocumentElement().getAttribute("width")))
                .isGreaterThan(SvgBarChart.WIDTH);
        assertThat(width(bars(document).get(0))).isGreaterThanOrEqualTo(200);
    }

    @Test
    void aLongSubtitleWrapsInsteadOfWideningTheChart() {
        String subtitle = "word ".repeat(60).trim();
        BarChart chart = new BarChart("t", subtitle, List.of("a"),
                List.of(new BarChart.Group("g", List.of(new BarChart.Bar(1, "1")))));

        Document document = XmlDocuments.parse(SvgBarChart.render(chart));

        assertThat(document.getDocumentElement().getAttribute("width")).isEqualTo("" + SvgBarChart.WIDTH);
        List<String> lines = XmlDocuments.elements(document, "text").stream().map(Element::getTextContent)
                .filter(text -> text.startsWith("word")).toList();
        assertThat(lines).hasSizeGreaterThan(1);
        assertThat(String.join(" ", lines)).isEqualTo(subtitle);
    }

    @Test
    void wrappingBreaksBetweenWordsAndKeepsAWordLongerThanALine() {
        assertThat(SvgBarChart.wrap("aa bb cc dd", 5)).containsExactly("aa bb", "cc dd");
        assertThat(SvgBarChart.wrap("a muchlongerword b", 5)).containsExactly("a", "muchlongerword", "b");
        assertThat(SvgBarChart.wrap("  ", 5)).isEmpty();
    }

    @Test
    void aGroupNeedsOneBarPerSeries() {
        assertThatIllegalArgumentException().isThrownBy(() -> new BarChart("t", "", List.of("a", "b"),
                List.of(new BarChart.Group("g", List.of(new BarChart.Bar(1, "1"))))))
                .withMessageContaining("group 'g' of 't' has 1 bars for 2 series");
    }

    private static List<Element> bars(Document document) {
        return XmlDocuments.elements(document, "rect").stream()
                .filter(rect -> rect.getAttribute("class").equals("bar")).toList();
    }

    private static double width(Element bar) {
        return Double.parseDouble(bar.getAttribute("width"));
    }
}

package io.distlock.benchmarks;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The HTML page built from hand-made reports ({@link SampleReports}), parsed with the JDK's XML parser. */
@Timeout(10)
class HtmlReportTest {

    @Test
    void aFullRunHasAChartPerPartOfTheRunInlineAndAsFiles() {
        HtmlReport report = HtmlReport.of(SampleReports.full());

        assertThat(report.charts()).containsOnlyKeys("throughput.svg", "latency-contended.svg", "latency-fair.svg",
                "latency-single.svg", "processes-throughput.svg", "processes-wait-1-lock-name.svg",
                "processes-wait-8-lock-names.svg");
        for (Map.Entry<String, String> chart : report.charts().entrySet()) {
            assertThat(report.html()).as(chart.getKey()).contains(chart.getValue())
                    .contains("<a href=\"" + chart.getKey() + "\">");
            assertThat(XmlDocuments.parse(chart.getValue()).getDocumentElement().getLocalName()).isEqualTo("svg");
        }
        Document page = XmlDocuments.parse(report.html());
        assertThat(XmlDocuments.elements(page, "figure")).hasSize(7);
        assertThat(XmlDocuments.elements(page, "svg")).hasSize(7);
    }

    @Test
    void theEnvironmentComesFirstWithItsTextEscaped() {
        String html = HtmlReport.of(SampleReports.full()).html();

        assertThat(html).startsWith("<!DOCTYPE html>")
                .contains("2026-11-24T10:15:30Z", "abc1234-dirty", "7.2.4", "Redisson 4.7.0", "OpenJDK 17")
                .contains("<th>CPU cores</th><td>2</td>")
                .contains("uncontended, contended, fair, read, multi, semaphore, single, watchdog, processes")
                .contains("16 threads (single: 1); 3 rounds", "warm-up 2 s before every measurement, measurement 5 s")
                .contains("3 child JVMs x 4 threads; 3 rounds of 1 lock name and 8 lock names")
                .contains("20,000 locks held by one client for 60 s, watchdog timeout 3 s")
                .contains("&lt;local&gt; redis-server &amp; &quot;friends&quot;")
                .doesNotContain(SampleReports.REDIS_LOCATION);
        assertThat(html.indexOf("<table class=\"environment\">")).isLessThan(html.indexOf("<figure"));
        Document page = XmlDocuments.parse(html);
        String text = page.getDocumentElement().getTextContent();
        assertThat(text).contains(SampleReports.REDIS_LOCATION);
    }

    @Test
    void checksAndTheWatchdogTableAreThere() {
        String html = HtmlReport.of(SampleReports.full()).html();

        assertThat(html).contains("<strong class=\"met\">PASS</strong>: (1) uncontended: distlock &gt;= 2x redisson")
                .contains("processes, hot lock: no JVM keeps it for more than 100")
                .contains("<h2>Watchdog</h2>")
                .contains("<tr><th>renewal script calls per round</th><td class=\"number\">40.0</td>"
                        + "<td class=\"number\">2000.0</td></tr>")
                .contains("<strong class=\"met\">PASS</strong>: watchdog: distlock lost none of 20,000 locks");
    }

    @Test
    void aRunOfTheProcessesScenarioAloneHasItsChartsOnly() {
        HtmlReport report = HtmlReport.of(SampleReports.processesOnly());

        assertThat(report.charts()).containsOnlyKeys("processes-throughput.svg", "processes-wait-1-lock-name.svg",
                "processes-wait-8-lock-names.svg");
        Document page = XmlDocuments.parse(report.html());
        assertThat(XmlDocuments.elements(page, "h2")).extracting(Element::getTextContent)
                .containsExactly("Processes: 3 JVMs x 4 threads");
        assertThat(report.html()).doesNotContain("throughput scenarios", "<h2>Watchdog</h2>");
    }
}

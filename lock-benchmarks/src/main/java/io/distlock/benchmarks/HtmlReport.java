package io.distlock.benchmarks;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * The HTML report of a run, one self-contained page: what was measured where at the top, then for
 * each part of the run its charts as inline SVG ({@link ReportCharts} drawn by {@link SvgBarChart})
 * and its checks, and the watchdog scenario as a small table. The page needs no script, style sheet
 * or font from elsewhere, and its markup is well-formed XML too. The SVG text of every chart is
 * also kept under a file name ({@link #charts()}), so that the charts can be written beside the
 * page and embedded elsewhere, e.g. in README.
 */
final class HtmlReport {

    /** File name of the page. */
    static final String PAGE = "index.html";

    private static final String TITLE = "distlock vs Redisson lock benchmark";
    private static final String STYLE = """
            body{font-family:system-ui,-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;color:#111827;\
            background:#ffffff;max-width:960px;margin:2rem auto;padding:0 1rem;line-height:1.45}
            table{border-collapse:collapse;margin:1rem 0}
            th,td{border:1px solid #d1d5db;padding:0.3rem 0.6rem;text-align:left;vertical-align:top}
            th{background:#f3f4f6;font-weight:600}
            td.number{text-align:right}
            figure{margin:1.5rem 0}
            figure svg{display:block;max-width:100%;height:auto}
            figcaption{font-size:0.85rem;color:#4b5563}
            .met{color:#15803d}
            .unmet{color:#b91c1c}""";

    private final StringBuilder html = new StringBuilder();
    private final Map<String, String> charts = new LinkedHashMap<>();

    private HtmlReport() {
    }

    /**
     * @param report the run's measurements
     * @return its HTML report
     */
    static HtmlReport of(BenchmarkReport report) {
        HtmlReport page = new HtmlReport();
        page.write(report);
        return page;
    }

    /** @return the page, to be written as {@value #PAGE} */
    String html() {
        return html.toString();
    }

    /** @return the SVG document of every chart on the page by file name, e.g. {@code throughput.svg}; in page order */
    Map<String, String> charts() {
        return Collections.unmodifiableMap(charts);
    }

    private void write(BenchmarkReport report) {
        html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n")
                .append("<title>").append(Xml.escape(TITLE + ", " + report.environment().started()))
                .append("</title>\n<style>\n").append(STYLE).append("\n</style>\n</head>\n<body>\n")
                .append("<h1>").append(Xml.escape(TITLE)).append("</h1>\n");
        environment(report);
        if (!report.results().isEmpty()) {
            throughputScenarios(report);
        }
        report.watchdog().ifPresent(this::watchdog);
        report.processes().ifPresent(this::processes);
        paragraph("The text report on standard output has every round's values, and for the processes scenario "
                + "the hand-offs to another JVM, the longest same-JVM streaks and each JVM's share.");
        html.append("</body>\n</html>\n");
    }

    private void environment(BenchmarkReport report) {
        Environment env = report.environment();
        List<String> scenarios = new ArrayList<>(report.results().stream()
                .map(result -> result.scenario().cliName()).toList());
        report.watchdog().ifPresent(result -> scenarios.add(Scenario.WATCHDOG.cliName()));
        report.processes().ifPresent(result -> scenarios.add(Scenario.PROCESSES.cliName()));
        html.append("<table class=\"environment\">\n");
        row("started", env.started().toString());
        row("commit", env.commit() + " (the benchmark was built from it; -dirty: with uncommitted changes)");
        row("clients", env.clients());
        row("Redis", env.redisVersion() + " (" + env.redisLocation() + ")");
        row("JVM", env.jvm());
        row("CPU cores", Integer.toString(env.cores()));
        row("scenarios", String.join(", ", scenarios));
        if (!report.results().isEmpty()) {
            row("throughput scenarios", format("%d threads (single: 1); %s, each measuring distlock, then "
                            + "Redisson, then the ceiling, back to back; warm-up %s s before every measurement, "
                            + "measurement %s s", env.threads(), ReportCharts.plural(env.rounds(), "round"),
                    ReportPrinter.seconds(env.warmup()), ReportPrinter.seconds(env.measurement())));
        }
        report.processes().ifPresent(result -> row("processes", format("%d child JVMs x %d threads; %s of %s, "
                        + "each measuring distlock, then Redisson, in fresh JVMs; warm-up %s s, window %s s",
                result.options().processes(), result.options().threads(),
                ReportCharts.plural(result.cases().get(0).rounds().size(), "round"),
                String.join(" and ", result.cases().stream().map(ProcessCase::label).toList()),
                ReportPrinter.seconds(result.options().warmup()), ReportPrinter.seconds(result.window()))));
        report.watchdog().ifPresent(result -> row("watchdog", format("%,d locks held by one client for %s s, "
                        + "watchdog timeout %s s", result.options().locks(),
                ReportPrinter.seconds(result.options().hold()), ReportPrinter.seconds(result.options().timeout()))));
        html.append("</table>\n");
    }

    private void throughputScenarios(BenchmarkReport report) {
        html.append("<h2>Throughput</h2>\n");
        paragraph("Medians over rounds; distlock/redisson is the median of the per-round ratios, not the ratio of "
                + "the medians.");
        figure("throughput", ReportCharts.throughput(report.results()));
        html.append("<ul>\n");
        for (ScenarioResult result : report.results()) {
            html.append("<li><strong>").append(Xml.escape(result.scenario().cliName())).append("</strong>: ")
                    .append(Xml.escape(result.scenario().description())).append("</li>\n");
        }
        html.append("<li><strong>ceiling</strong>: ").append(Xml.escape(ScriptCeiling.DESCRIPTION))
                .append("</li>\n</ul>\n");
        Map<String, BarChart> latencies = new LinkedHashMap<>();
        for (ScenarioResult result : report.results()) {
            ReportCharts.latency(result).ifPresent(chart -> latencies.put("latency-" + result.scenario().cliName(),
                    chart));
        }
        if (!latencies.isEmpty()) {
            html.append("<h2>Latency</h2>\n");
            latencies.forEach(this::figure);
        }
        checks(2, "Targets", Targets.evaluate(report), TargetCheck::verdict);
    }

    private void processes(ProcessResult result) {
        html.append("<h2>").append(Xml.escape(format("Processes: %d JVMs x %d threads",
                result.options().processes(), result.options().threads()))).append("</h2>\n");
        paragraph("Every thread of every child JVM loops lock(); unlock() on the same lock names; the children "
                + "record when each lock() returned and how long it waited, and their records are merged by time.");
        figure("processes-throughput", ReportCharts.processThroughput(result));
        for (ProcessCase measured : result.cases()) {
            figure("processes-wait-" + measured.label().replace(' ', '-'), ReportCharts.processWaits(result.options(), measured));
        }
        checks(3, "Processes checks", result.checks(), TargetCheck::verdict);
    }

    private void watchdog(WatchdogResult result) {
        html.append("<h2>Watchdog</h2>\n");
        paragraph(format("Round %d of %d, %s.", result.medianRound().number(), result.rounds().size(),
                WatchdogResult.MEDIAN_ROUND));
        html.append("<table class=\"watchdog\">\n")
                .append("<tr><th></th><th>distlock</th><th>redisson</th></tr>\n");
        watchdogRow(result, "renewal script calls per round", "%.1f", WatchdogMeasurement::callsPerRound);
        watchdogRow(result, "JVM CPU in the hold, share of one core", "%.1f%%",
                WatchdogMeasurement::cpuPercentOfCore);
        watchdogRow(result, "heap per held lock (approximate)", "%,.0f B", WatchdogMeasurement::heapBytesPerLock);
        watchdogRow(result, "Redis used_memory per held lock", "%,.0f B", WatchdogMeasurement::redisBytesPerLock);
        watchdogRow(result, "locks lost", "%,.0f", WatchdogMeasurement::locksLost);
        watchdogRow(result, "longest JVM stall in the hold", "%,.0f ms", WatchdogMeasurement::longestStall);
        html.append("</table>\n");
        checks(3, "Watchdog checks", result.checks(), TargetCheck::passOrFail);
        checks(3, "Watchdog target", List.of(result.cpuTarget()), TargetCheck::verdict);
    }

    private void watchdogRow(WatchdogResult result, String label, String format,
                             ToDoubleFunction<WatchdogMeasurement> metric) {
        html.append("<tr><th>").append(Xml.escape(label)).append("</th>");
        for (WatchdogMeasurement measured : List.of(result.distlock(), result.redisson())) {
            html.append("<td class=\"number\">").append(Xml.escape(format(format, metric.applyAsDouble(measured))))
                    .append("</td>");
        }
        html.append("</tr>\n");
    }

    private void figure(String name, BarChart chart) {
        String file = name + ".svg";
        String svg = SvgBarChart.render(chart);
        charts.put(file, svg);
        html.append("<figure id=\"").append(Xml.escape(name)).append("\">\n").append(svg)
                .append("<figcaption><a href=\"").append(Xml.escape(file)).append("\">").append(Xml.escape(file))
                .append("</a></figcaption>\n</figure>\n");
    }

    // level: of the heading, 2 for a section of its own, 3 within a scenario's section
    private void checks(int level, String heading, List<TargetCheck> checks, Function<TargetCheck, String> verdict) {
        if (checks.isEmpty()) {
            return;
        }
        html.append("<h").append(level).append('>').append(Xml.escape(heading)).append("</h").append(level)
                .append(">\n<ul>\n");
        for (TargetCheck check : checks) {
            html.append("<li><strong class=\"").append(check.met() ? "met" : "unmet").append("\">")
                    .append(Xml.escape(verdict.apply(check))).append("</strong>: ")
                    .append(Xml.escape(check.target() + " (measured " + check.actual() + ")")).append("</li>\n");
        }
        html.append("</ul>\n");
    }

    private void row(String header, String value) {
        html.append("<tr><th>").append(Xml.escape(header)).append("</th><td>").append(Xml.escape(value))
                .append("</td></tr>\n");
    }

    private void paragraph(String text) {
        html.append("<p>").append(Xml.escape(text)).append("</p>\n");
    }

    private static String format(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}

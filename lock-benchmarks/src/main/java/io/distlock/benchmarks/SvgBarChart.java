package io.distlock.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;

/**
 * Draws a {@link BarChart} as a standalone SVG document of horizontal bars: the title, the
 * subtitle wrapped to the width, then per group its label and one bar per series, with the
 * series' name left of the bar and the value's label right of it. All bars start at one zero line
 * and share one linear scale: the largest value spans the room left beside the longest label. The
 * document has an opaque white background, so it reads the same on a light or a dark page (such as
 * GitHub's dark theme), and it has no XML declaration, so the same text works as an {@code .svg}
 * file and inline in HTML.
 */
final class SvgBarChart {

    /** Width of a chart, in pixels, unless its texts need more. */
    static final int WIDTH = 760;

    /** Colours of the series in order, repeating: distinct for colour-blind readers, dark enough on white. */
    private static final List<String> PALETTE = List.of("#2563eb", "#ea580c", "#6b7280", "#059669", "#9333ea",
            "#db2777");
    private static final int MIN_SCALE_WIDTH = 200;
    private static final int MARGIN = 16;
    private static final int BAR_HEIGHT = 18;
    private static final int BAR_GAP = 4;
    private static final int GROUP_LABEL_HEIGHT = 22;
    private static final int GROUP_GAP = 14;
    private static final int TEXT_GAP = 6;
    /** Size of all text but the title and the group labels, in pixels. */
    private static final int TEXT_SIZE = 12;
    /** Width allowed for one character of {@link #TEXT_SIZE} sans-serif text: generous, so labels are not cut off. */
    private static final double CHAR_WIDTH = 7.2;
    /** From a bar's top to the baseline of the texts beside it: centres them on the bar. */
    private static final int BAR_TEXT_BASELINE = 13;
    private static final int LINE_HEIGHT = 17;
    /** How much wider bold characters are than normal ones, generously. */
    private static final double BOLD = 1.1;
    private static final int TITLE_SIZE = 16;
    private static final int GROUP_SIZE = 13;
    private static final String TEXT = "#111827";
    private static final String MUTED = "#4b5563";

    private SvgBarChart() {
    }

    /**
     * @param chart what to draw
     * @return the SVG document, starting with its {@code <svg>} element
     */
    static String render(BarChart chart) {
        int left = MARGIN + textWidth(chart.series(), 1) + TEXT_GAP;
        int labelRoom = TEXT_GAP + textWidth(chart.groups().stream()
                .flatMap(group -> group.bars().stream().map(BarChart.Bar::label)).toList(), 1);
        int width = IntStream.of(WIDTH, left + MIN_SCALE_WIDTH + labelRoom + MARGIN,
                2 * MARGIN + textWidth(List.of(chart.title()), (double) TITLE_SIZE / TEXT_SIZE * BOLD),
                2 * MARGIN + textWidth(chart.groups().stream().map(BarChart.Group::label).toList(),
                        (double) GROUP_SIZE / TEXT_SIZE * BOLD)).max().orElseThrow();
        double scaleWidth = width - MARGIN - labelRoom - left;
        double largest = chart.groups().stream().flatMap(group -> group.bars().stream())
                .mapToDouble(bar -> length(bar.value())).max().orElse(0);

        StringBuilder body = new StringBuilder();
        int y = MARGIN + TITLE_SIZE;
        text(body, MARGIN, y, TITLE_SIZE, "bold", "start", TEXT, chart.title());
        for (String line : wrap(chart.subtitle(), (int) ((width - 2 * MARGIN) / CHAR_WIDTH))) {
            y += LINE_HEIGHT;
            text(body, MARGIN, y, TEXT_SIZE, "normal", "start", MUTED, line);
        }
        y += 10;
        for (BarChart.Group group : chart.groups()) {
            y += GROUP_LABEL_HEIGHT;
            text(body, MARGIN, y - 7, GROUP_SIZE, "bold", "start", TEXT, group.label());
            int top = y;
            for (int i = 0; i < group.bars().size(); i++) {
                BarChart.Bar bar = group.bars().get(i);
                String series = chart.series().get(i);
                double barWidth = largest == 0 ? 0 : length(bar.value()) / largest * scaleWidth;
                text(body, left - TEXT_GAP, y + BAR_TEXT_BASELINE, TEXT_SIZE, "normal", "end", MUTED, series);
                body.append(String.format(Locale.ROOT,
                        "<rect class=\"bar\" x=\"%d\" y=\"%d\" width=\"%.2f\" height=\"%d\" fill=\"%s\">"
                                + "<title>%s: %s</title></rect>\n", left, y, barWidth, BAR_HEIGHT,
                        PALETTE.get(i % PALETTE.size()), Xml.escape(series), Xml.escape(bar.label())));
                text(body, (int) Math.ceil(left + barWidth) + TEXT_GAP, y + BAR_TEXT_BASELINE, TEXT_SIZE, "normal",
                        "start", TEXT, bar.label());
                y += BAR_HEIGHT + BAR_GAP;
            }
            body.append(String.format(Locale.ROOT,
                    "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"1\"/>\n", left,
                    top - 2, left, y - BAR_GAP + 2, MUTED));
            y += GROUP_GAP;
        }
        int height = y - GROUP_GAP + MARGIN;

        return String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                        + "viewBox=\"0 0 %d %d\" role=\"img\" font-family=\"Helvetica, Arial, sans-serif\">\n"
                        + "<title>%s</title>\n<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n%s</svg>\n", width,
                height, width, height, Xml.escape(chart.title()), width, height, body);
    }

    /** @return the value as a bar length: values that are not positive and finite draw no bar */
    private static double length(double value) {
        return Double.isFinite(value) && value > 0 ? value : 0;
    }

    /**
     * @param texts texts of one size and weight
     * @param scale their character width relative to {@link #TEXT_SIZE} normal text
     * @return room for the longest of them, in pixels
     */
    private static int textWidth(List<String> texts, double scale) {
        int longest = texts.stream().mapToInt(text -> text.codePointCount(0, text.length())).max().orElse(0);
        return (int) Math.ceil(longest * CHAR_WIDTH * scale);
    }

    /**
     * @param text     words separated by spaces
     * @param maxChars the most characters a line should hold
     * @return the text in lines of at most that many characters where words allow, none if it is blank
     */
    static List<String> wrap(String text, int maxChars) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : text.trim().split(" +")) {
            if (line.length() > 0 && line.length() + 1 + word.length() > maxChars) {
                lines.add(line.toString());
                line.setLength(0);
            }
            line.append(line.length() > 0 ? " " : "").append(word);
        }
        if (line.length() > 0) {
            lines.add(line.toString());
        }
        return lines;
    }

    private static void text(StringBuilder svg, int x, int y, int size, String weight, String anchor, String fill,
                             String content) {
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"%d\" font-weight=\"%s\" "
                + "text-anchor=\"%s\" fill=\"%s\">%s</text>\n", x, y, size, weight, anchor, fill, Xml.escape(content)));
    }
}

package io.distlock.benchmarks;

import java.util.List;

/**
 * What a grouped bar chart shows, independent of how it is drawn ({@link SvgBarChart}): every
 * group has one bar per series, in the series' order, and all bars share one linear scale from
 * zero.
 *
 * @param title    the headline
 * @param subtitle one line under it, e.g. what the values are and their unit; may be empty
 * @param series   the names of the series, e.g. the things compared; at least one
 * @param groups   the groups, top to bottom; at least one
 */
record BarChart(String title, String subtitle, List<String> series, List<Group> groups) {

    /**
     * @throws IllegalArgumentException if there is no series or no group, or a group has not one
     *                                  bar per series
     */
    BarChart {
        series = List.copyOf(series);
        groups = List.copyOf(groups);
        if (series.isEmpty() || groups.isEmpty()) {
            throw new IllegalArgumentException("a bar chart needs a series and a group: " + title);
        }
        for (Group group : groups) {
            if (group.bars().size() != series.size()) {
                throw new IllegalArgumentException("group '" + group.label() + "' of '" + title + "' has "
                        + group.bars().size() + " bars for " + series.size() + " series");
            }
        }
    }

    /**
     * One group of bars, e.g. one scenario.
     *
     * @param label names the group
     * @param bars  one bar per series, in the series' order
     */
    record Group(String label, List<Bar> bars) {

        /** Copies the bars. */
        Group {
            bars = List.copyOf(bars);
        }
    }

    /**
     * One bar.
     *
     * @param value its length on the chart's scale; a value that is not a positive finite number
     *              draws no bar
     * @param label the value as the reader sees it, e.g. {@code "12,345 ops/s"}
     */
    record Bar(double value, String label) {
    }
}

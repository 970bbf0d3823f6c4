package io.distlock.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The directory an {@link HtmlReport} is written to: the page as {@value HtmlReport#PAGE} and each
 * chart as its own {@code .svg} file beside it, replacing files of the same names. Files an earlier
 * run wrote that this one does not (e.g. of scenarios not run now) are left alone.
 */
final class ReportDirectory {

    private final Path directory;

    private ReportDirectory(Path directory) {
        this.directory = directory;
    }

    /**
     * Creates the directory if it is missing: done before a run, so that a path that cannot be used
     * fails at once rather than after the measurements.
     *
     * @param directory where the report goes
     * @return the directory
     * @throws UncheckedIOException naming the directory, if it cannot be created
     */
    static ReportDirectory create(Path directory) {
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw failure("cannot create the report directory " + directory.toAbsolutePath(), e);
        }
        return new ReportDirectory(directory);
    }

    /**
     * @param report the report to write
     * @return the path of the page written
     * @throws UncheckedIOException naming the file, if a file cannot be written
     */
    Path write(HtmlReport report) {
        for (Map.Entry<String, String> chart : report.charts().entrySet()) {
            write(directory.resolve(chart.getKey()), chart.getValue());
        }
        Path page = directory.resolve(HtmlReport.PAGE);
        write(page, report.html());
        return page;
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw failure("cannot write the HTML report file " + file.toAbsolutePath(), e);
        }
    }

    private static UncheckedIOException failure(String what, IOException cause) {
        return new UncheckedIOException(what + ": " + cause, cause);
    }
}

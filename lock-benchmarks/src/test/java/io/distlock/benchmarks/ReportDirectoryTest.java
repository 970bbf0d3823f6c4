package io.distlock.benchmarks;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Writing the HTML report's files, and failures that name the path. */
@Timeout(10)
class ReportDirectoryTest {

    @Test
    void writesThePageAndEveryChartIntoADirectoryItCreates(@TempDir Path temp) throws IOException {
        Path directory = temp.resolve("nested/report");
        HtmlReport report = HtmlReport.of(SampleReports.full());

        Path page = ReportDirectory.create(directory).write(report);

        assertThat(page).isEqualTo(directory.resolve("index.html"));
        assertThat(Files.readString(page, StandardCharsets.UTF_8)).isEqualTo(report.html());
        for (Map.Entry<String, String> chart : report.charts().entrySet()) {
            assertThat(Files.readString(directory.resolve(chart.getKey()), StandardCharsets.UTF_8))
                    .isEqualTo(chart.getValue());
        }
        try (var files = Files.list(directory)) {
            assertThat(files.count()).isEqualTo(report.charts().size() + 1);
        }
    }

    @Test
    void aDirectoryThatCannotBeCreatedIsNamed(@TempDir Path temp) throws IOException {
        Path file = Files.writeString(temp.resolve("taken"), "a file, not a directory");

        assertThatThrownBy(() -> ReportDirectory.create(file)).isInstanceOf(UncheckedIOException.class)
                .hasMessageStartingWith("cannot create the report directory " + file.toAbsolutePath() + ": ");
    }

    @Test
    void aFileThatCannotBeWrittenIsNamed(@TempDir Path temp) throws IOException {
        ReportDirectory directory = ReportDirectory.create(temp);
        Files.createDirectory(temp.resolve("index.html"));

        assertThatThrownBy(() -> directory.write(HtmlReport.of(SampleReports.processesOnly())))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageStartingWith("cannot write the HTML report file " + temp.resolve("index.html")
                        .toAbsolutePath() + ": ");
    }
}

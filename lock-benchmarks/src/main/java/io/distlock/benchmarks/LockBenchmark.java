package io.distlock.benchmarks;

import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * Command line entry point: compares the distlock engine with Redisson on one Redis, prints a
 * markdown report to standard output (progress goes to standard error) and writes an HTML report
 * with charts ({@link HtmlReport}) to {@code --report-dir}, whose page's path it prints last to
 * standard error. Options: see {@link BenchmarkOptions#HELP} or run with {@code --help}.
 *
 * <pre>
 * ./mvnw -q -pl lock-benchmarks -am package -DskipTests &amp;&amp; java -jar lock-benchmarks/target/lock-benchmarks.jar
 * </pre>
 */
public final class LockBenchmark {

    private LockBenchmark() {
    }

    /**
     * Runs the benchmark. Exit status 0 after both reports (whether the targets were met or not), 2
     * on bad options, 1 if the run failed or the HTML report could not be written.
     *
     * @param args {@code --key=value} options
     */
    public static void main(String[] args) {
        if (BenchmarkOptions.helpRequested(args)) {
            System.out.print(BenchmarkOptions.HELP);
            return;
        }
        BenchmarkOptions options;
        try {
            options = BenchmarkOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            System.err.print(BenchmarkOptions.HELP);
            System.exit(2);
            return;
        }
        ReportDirectory reportDirectory;
        try {
            reportDirectory = ReportDirectory.create(options.reportDir());
        } catch (UncheckedIOException e) {
            System.err.println("error: " + e.getMessage());
            System.exit(1);
            return;
        }
        try {
            BenchmarkReport report = new BenchmarkRun(options, System.err).execute();
            new ReportPrinter(System.out).print(report);
            writeHtml(reportDirectory, report);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            System.err.println("benchmark interrupted");
            System.exit(1);
        } catch (RuntimeException e) {
            System.err.println("benchmark failed:");
            e.printStackTrace();
            System.exit(1);
        }
    }

    private static void writeHtml(ReportDirectory directory, BenchmarkReport report) {
        try {
            Path page = directory.write(HtmlReport.of(report));
            System.err.println("HTML report: " + page.toAbsolutePath());
        } catch (UncheckedIOException e) {
            System.err.println("error: " + e.getMessage());
            System.exit(1);
        }
    }
}

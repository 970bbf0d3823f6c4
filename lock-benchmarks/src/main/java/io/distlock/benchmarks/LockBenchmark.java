package io.distlock.benchmarks;

/**
 * Command line entry point: compares the distlock engine with Redisson on one Redis and prints a
 * markdown report to standard output (progress goes to standard error). Options: see
 * {@link BenchmarkOptions#HELP} or run with {@code --help}.
 *
 * <pre>
 * ./mvnw -q -pl lock-benchmarks -am package -DskipTests &amp;&amp; java -jar lock-benchmarks/target/lock-benchmarks.jar
 * </pre>
 */
public final class LockBenchmark {

    private LockBenchmark() {
    }

    /**
     * Runs the benchmark. Exit status 0 after a report (whether the targets were met or not), 2 on
     * bad options, 1 if the run failed.
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
        try {
            BenchmarkReport report = new BenchmarkRun(options, System.err).execute();
            new ReportPrinter(System.out).print(report);
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
}

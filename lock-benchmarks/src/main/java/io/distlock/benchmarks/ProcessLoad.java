package io.distlock.benchmarks;

import io.distlock.test.JavaProcess;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One backend in one case of the {@link Scenario#PROCESSES} scenario: starts the child JVMs
 * ({@link ProcessWorkerMain}, on this JVM's classpath), waits until all are connected, gives them
 * one common window on the machine's monotonic clock (a warm-up, then the measurement), and merges
 * their records into a {@link ProcessMeasurement}. Every wait is bounded, and the children are
 * killed at the end whatever happened.
 */
final class ProcessLoad {

    /** The same for every child and both backends: a small heap, as for a service instance. */
    private static final List<String> CHILD_JVM_OPTIONS = List.of("-Xms64m", "-Xmx256m");
    /** Bound on a child's start: JVM start, class loading and connecting, on a loaded machine. */
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    /** Time between the start signal and the window's start, for the signal to reach every child. */
    private static final Duration SIGNAL_MARGIN = Duration.ofMillis(200);
    /** Bound on writing the records and exiting after the window, on top of a step's stop grace. */
    private static final Duration FINISH_TIMEOUT = Duration.ofSeconds(30);

    private ProcessLoad() {
    }

    /**
     * @param backend     {@code distlock} or {@code redisson}
     * @param redisUri    the Redis to use
     * @param keyPrefix   prefix of every key of this load
     * @param options     how many children, with how many threads, warmed up how long
     * @param names       how many lock names the threads spread over
     * @param measurement length of the window
     * @return the merged measurement
     * @throws IllegalStateException if a child failed or did not answer in time (with its output)
     */
    static ProcessMeasurement run(String backend, String redisUri, String keyPrefix, ProcessOptions options,
                                  int names, Duration measurement) {
        Path directory = createDirectory();
        List<JavaProcess> children = new ArrayList<>(options.processes());
        try {
            for (int i = 0; i < options.processes(); i++) {
                children.add(JavaProcess.start(ProcessWorkerMain.class.getName(), CHILD_JVM_OPTIONS,
                        List.of(backend, redisUri, keyPrefix, Integer.toString(options.threads()),
                                Integer.toString(names), Integer.toString(i), recordFile(directory, i).toString())));
            }
            for (JavaProcess child : children) {
                child.awaitLine(ProcessWorkerMain.READY, START_TIMEOUT);
            }
            long startNanos = System.nanoTime() + SIGNAL_MARGIN.toNanos() + options.warmup().toNanos();
            long endNanos = startNanos + measurement.toNanos();
            for (JavaProcess child : children) {
                child.writeLine("GO " + startNanos + " " + endNanos);
            }
            Duration finish = measurement.plus(options.warmup()).plus(SIGNAL_MARGIN).plus(TimedLoad.STOP_GRACE)
                    .plus(FINISH_TIMEOUT);
            for (JavaProcess child : children) {
                child.awaitLine(ProcessWorkerMain.DONE, finish);
            }
            List<AcquisitionRecord> records = new ArrayList<>();
            for (int i = 0; i < children.size(); i++) {
                try (InputStream in = Files.newInputStream(recordFile(directory, i))) {
                    AcquisitionRecord.readAll(in, i, records);
                }
            }
            return ProcessMeasurement.of(backend, names, options.processes(), endNanos - startNanos, records);
        } catch (IOException e) {
            throw new UncheckedIOException("reading the children's records", e);
        } finally {
            children.forEach(JavaProcess::close);
            deleteDirectory(directory, options.processes());
        }
    }

    private static Path recordFile(Path directory, int process) {
        return directory.resolve("process-" + process + ".bin");
    }

    private static Path createDirectory() {
        try {
            return Files.createTempDirectory("distlock-processes-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a directory for the children's records", e);
        }
    }

    private static void deleteDirectory(Path directory, int processes) {
        try {
            for (int i = 0; i < processes; i++) {
                Files.deleteIfExists(recordFile(directory, i));
            }
            Files.deleteIfExists(directory);
        } catch (IOException e) {
            // a leftover file in the temporary directory: not worth failing the run
        }
    }
}

package io.distlock.benchmarks;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Where and how a benchmark run measured: printed as the report's header.
 *
 * @param started        when the run started, to the second
 * @param commit         the Git commit the benchmark was built from ({@link GitCommit})
 * @param redisVersion   version reported by the server
 * @param redisLocation  where the server is, without credentials
 * @param jvm            JVM name and version
 * @param cores          processors available to the JVM
 * @param clients        versions of the client libraries
 * @param threads        threads of the multi-threaded scenarios
 * @param rounds         rounds per scenario
 * @param warmup         warm-up before each measurement
 * @param measurement    length of each measurement
 */
public record Environment(Instant started, String commit, String redisVersion, String redisLocation, String jvm,
                          int cores, String clients, int threads, int rounds, Duration warmup,
                          Duration measurement) {

    /**
     * @param redisVersion  version reported by the server
     * @param redisLocation where the server is
     * @param options       the run's options
     * @return the environment of this JVM, started now
     */
    static Environment current(String redisVersion, String redisLocation, BenchmarkOptions options) {
        String jvm = System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")
                + " on " + System.getProperty("os.name") + " " + System.getProperty("os.arch");
        String clients = "distlock " + ArtifactVersion.of("io.distlock", "lock-core")
                + " on Lettuce " + ArtifactVersion.of("io.lettuce", "lettuce-core")
                + ", Redisson " + ArtifactVersion.of("org.redisson", "redisson");
        return new Environment(Instant.now().truncatedTo(ChronoUnit.SECONDS), GitCommit.ofBenchmark(), redisVersion,
                redisLocation, jvm, Runtime.getRuntime().availableProcessors(), clients,
                options.threads(), options.rounds(), options.warmup(), options.measurement());
    }
}

package io.distlock.core;

import io.distlock.test.JavaProcess;
import io.distlock.test.RedisExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.File;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * lock-core's Micrometer dependencies are optional: a JVM without Micrometer on its
 * classpath builds a client and takes a lock, as long as it gives no observation or meter registry.
 */
@Timeout(60)
class WithoutMicrometerTest {

    @RegisterExtension
    static RedisExtension redis = RedisExtension.single();

    @Test
    void aClientWithoutObservationsNeedsNoMicrometer() {
        List<String> entries = Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator));
        String withoutMicrometer = entries.stream().filter(entry -> !entry.contains("micrometer-"))
                .collect(Collectors.joining(File.pathSeparator));
        assertThat(withoutMicrometer.length()).as("Micrometer is on the tests' own classpath")
                .isLessThan(String.join(File.pathSeparator, entries).length());

        // The later -cp wins over the one JavaProcess passes.
        try (JavaProcess holder = JavaProcess.start(LockHolderMain.class.getName(), List.of("-cp", withoutMicrometer),
                List.of(redis.server().uri(), "without-micrometer", "5000"))) {
            assertThat(holder.awaitLine("LOCKED", Duration.ofSeconds(30))).startsWith("LOCKED");
        }
    }
}

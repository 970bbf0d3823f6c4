package io.distlock.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(30)
class RedisBinaryTest {

    @Test
    void discoveredBinaryReportsItsVersion() {
        RedisBinary binary = RedisBinary.discover();
        assertThat(binary.version()).matches("\\d+\\.\\d+\\.\\d+.*");
        assertThat(Files.isExecutable(binary.path())).isTrue();
        assertThat(binary.toString()).contains(binary.version()).contains(binary.path().toString());
    }

    @Test
    void explicitBinaryFromEnvironmentWins() {
        Path real = RedisBinary.discover().path();
        RedisBinary binary = RedisBinary.discover(Map.of(RedisBinary.ENV, real.toString(), "PATH", ""));
        assertThat(binary.source()).isEqualTo(RedisBinary.Source.ENV_VARIABLE);
        assertThat(binary.path()).isEqualTo(real);
    }

    @Test
    void nonExecutableExplicitBinaryFailsClearly(@TempDir Path dir) throws Exception {
        Path notExecutable = Files.writeString(dir.resolve("redis-server"), "not a program");
        assertThatThrownBy(() -> RedisBinary.discover(Map.of(RedisBinary.ENV, notExecutable.toString())))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(RedisBinary.ENV)
                .hasMessageContaining("not executable");
        assertThatThrownBy(() -> RedisBinary.discover(Map.of(RedisBinary.ENV, dir.resolve("missing").toString())))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no such file");
    }

    @Test
    void withoutPathFallsBackToEmbeddedBinary() {
        RedisBinary binary = RedisBinary.discover(Map.of("PATH", ""));
        assertThat(binary.source()).isEqualTo(RedisBinary.Source.EMBEDDED_JAR);
        assertThat(binary.version()).startsWith("6.2");
    }

    @Test
    void aRequiredVersionRefusesAnOlderBinaryClearly() {
        RedisBinary embedded = RedisBinary.discover(Map.of("PATH", ""));
        assertThatThrownBy(() -> RedisBinary.requireAtLeast("7", embedded))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(RedisBinary.REQUIRE_PROPERTY + "=7")
                .hasMessageContaining(embedded.toString())
                .hasMessageContaining("apt-get install redis-server");
        RedisBinary.requireAtLeast("6.2", embedded);
        RedisBinary.requireAtLeast(" ", embedded);
        RedisBinary.requireAtLeast(null, embedded);
        assertThatThrownBy(() -> RedisBinary.requireAtLeast("seven", embedded))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(RedisBinary.REQUIRE_PROPERTY);
    }

    @Test
    void versionsCompareNumberByNumberAsFarAsTheRequirementGoes() {
        assertThat(RedisBinary.atLeast("7.0.15", "7")).isTrue();
        assertThat(RedisBinary.atLeast("7.2.4", "7.2")).isTrue();
        assertThat(RedisBinary.atLeast("10.0.0", "7.2")).isTrue();
        assertThat(RedisBinary.atLeast("6.2.6", "7")).isFalse();
        assertThat(RedisBinary.atLeast("7.0.15", "7.2")).isFalse();
    }

    @Test
    void embeddedResourceMatchesPlatform() {
        assertThat(EmbeddedBinaryExtractor.resourceName("Linux", "amd64")).isEqualTo("redis-server-6.2.6-v5-linux-amd64");
        assertThat(EmbeddedBinaryExtractor.resourceName("Linux", "aarch64")).isEqualTo("redis-server-6.2.7-linux-arm64");
        assertThat(EmbeddedBinaryExtractor.resourceName("Mac OS X", "x86_64"))
                .isEqualTo("redis-server-6.2.6-v5-darwin-amd64");
        assertThat(EmbeddedBinaryExtractor.resourceName("Mac OS X", "aarch64"))
                .isEqualTo("redis-server-6.2.6-v5-darwin-arm64");
        assertThatThrownBy(() -> EmbeddedBinaryExtractor.resourceName("Windows 11", "amd64"))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void modesParseAndResolve() {
        assertThat(RedisMode.parse(" Embedded ")).isEqualTo(RedisMode.EMBEDDED);
        assertThatThrownBy(() -> RedisMode.parse("cluster")).isInstanceOf(IllegalArgumentException.class);
        assertThat(RedisMode.PROCESS.resolve()).isEqualTo(RedisMode.PROCESS);
        assertThat(RedisMode.AUTO.resolve())
                .isEqualTo(DockerAvailability.isAvailable() ? RedisMode.DOCKER : RedisMode.PROCESS);
    }
}

package io.distlock.benchmarks;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** The commit a report names: the one the build recorded. */
class GitCommitTest {

    @Test
    void theBuildRecordsTheCommitOfItsCheckout() {
        // The tests run from a Git checkout (CI clones one), so the build recorded a commit.
        assertThat(GitCommit.ofBenchmark()).matches("[0-9a-f]{7,}(-dirty)?");
    }

    @Test
    void withoutARecordedCommitItIsUnknown() throws IOException {
        assertThat(GitCommit.of(null)).isEqualTo(GitCommit.UNKNOWN);
        assertThat(GitCommit.of(new ByteArrayInputStream("git.branch=main".getBytes(StandardCharsets.ISO_8859_1))))
                .isEqualTo(GitCommit.UNKNOWN);
        assertThat(GitCommit.of(new ByteArrayInputStream("git.commit.id.describe=72f4b05-dirty"
                .getBytes(StandardCharsets.ISO_8859_1)))).isEqualTo("72f4b05-dirty");
    }
}

package io.distlock.benchmarks;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The commit a report names when there is no checkout to ask. */
@Timeout(20)
class GitCommitTest {

    @Test
    void aDirectoryOutsideAnyCheckoutHasAnUnknownCommit(@TempDir Path notACheckout) {
        assertThat(GitCommit.of(notACheckout)).isEqualTo(GitCommit.UNKNOWN);
    }

    @Test
    void aDirectoryThatDoesNotExistHasAnUnknownCommit(@TempDir Path parent) {
        assertThat(GitCommit.of(parent.resolve("missing"))).isEqualTo(GitCommit.UNKNOWN);
    }
}

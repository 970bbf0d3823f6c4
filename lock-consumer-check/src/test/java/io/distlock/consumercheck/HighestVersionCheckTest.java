package io.distlock.consumercheck;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The check itself, on hand-written trees: it reports each way a POM can ask above the application's Boot. */
class HighestVersionCheckTest {

    private static final String ROOT = "com.example:app:jar:1.0";

    @Test
    void aVersionBootsManagementBroughtDownIsReported() {
        List<String> tree = List.of(ROOT,
                "\\- io.distlock:lock-spring-boot-starter:jar:0.1.0:compile",
                "   +- org.springframework.boot:spring-boot-autoconfigure:jar:3.5.16:compile "
                        + "(version managed from 4.1.1)",
                "   \\- io.lettuce:lettuce-core:jar:6.6.0.RELEASE:compile (version managed from 7.5.2.RELEASE)");

        assertThat(HighestVersionCheck.newerThanManaged(tree)).containsExactly(
                "org.springframework.boot:spring-boot-autoconfigure asks for 4.1.1, the application's Boot gives 3.5.16",
                "io.lettuce:lettuce-core asks for 7.5.2.RELEASE, the application's Boot gives 6.6.0.RELEASE");
    }

    @Test
    void anOmittedNodeAskingForMoreIsReportedToo() {
        List<String> tree = List.of(ROOT,
                "+- io.micrometer:micrometer-observation:jar:1.15.12:compile",
                "\\- io.distlock:lock-core:jar:0.1.0:compile",
                "   \\- (io.micrometer:micrometer-observation:jar:1.15.12:compile - version managed from 1.17.1; "
                        + "omitted for duplicate)");

        assertThat(HighestVersionCheck.newerThanManaged(tree)).containsExactly(
                "io.micrometer:micrometer-observation asks for 1.17.1, the application's Boot gives 1.15.12");
    }

    @Test
    void versionsManagedUpOrEqualAndOtherGroupsPass() {
        List<String> tree = List.of(ROOT,
                "\\- io.lettuce:lettuce-core:jar:6.6.0.RELEASE:compile",
                "   +- io.projectreactor:reactor-core:jar:3.7.9:compile (version managed from 3.6.6)",
                "   +- io.netty:netty-common:jar:4.1.127.Final:compile (version managed from 4.2.0.Final)",
                "   \\- (io.projectreactor:reactor-core:jar:3.7.9:compile - omitted for duplicate)");

        assertThat(HighestVersionCheck.newerThanManaged(tree)).as("Netty is not a watched group").isEmpty();
    }

    @Test
    void versionsCompareByTheirNumbers() {
        assertThat(HighestVersionCheck.VERSIONS.compare("1.15.12", "1.9.3")).isPositive();
        assertThat(HighestVersionCheck.VERSIONS.compare("4.1.118.Final", "4.1.119.Final")).isNegative();
        assertThat(HighestVersionCheck.VERSIONS.compare("6.6.0.RELEASE", "6.6.0.RELEASE")).isZero();
        assertThat(HighestVersionCheck.VERSIONS.compare("7.0.0-RC1", "7.0.0")).as("reported, not missed").isPositive();
    }
}

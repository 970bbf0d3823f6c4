package io.distlock.consumercheck;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The starter as a Spring Boot 3.5 application resolves it (this module's dependency tree, written
 * by the build before the tests): no published POM asks for a Spring, Lettuce, Micrometer or
 * Reactor artifact above what Boot 3.5 manages, so a Gradle build, which takes the highest version
 * asked for, gets Boot 3.5's.
 */
class PublishedPomsTest {

    @Test
    void noPublishedPomAsksAboveTheApplicationsBoot() throws IOException {
        List<String> tree = Files.readAllLines(Path.of(System.getProperty("distlock.consumer.tree")));
        List<String> keys = tree.stream().map(TreeNode::parse).flatMap(Optional::stream)
                .filter(node -> !node.omitted()).map(TreeNode::key).toList();
        assertThat(keys).as("the tree of a consumer of the starter")
                .contains("io.distlock:lock-spring-boot-starter", "io.distlock:lock-spring-boot-autoconfigure",
                        "io.distlock:lock-spring-boot3-adapter", "io.distlock:lock-core", "io.lettuce:lettuce-core");
        // Maven notes "version managed from" on the nodes Boot's BOM manages (Netty and Reactor
        // among them, which Boot 3.5 raises above what Lettuce 6.6 asks for): without a single
        // one, the tree's format changed and the check below would see nothing.
        assertThat(tree.stream().map(TreeNode::parse).flatMap(Optional::stream))
                .as("nodes whose version Boot's management replaced").anyMatch(node -> node.managedFrom().isPresent());

        assertThat(HighestVersionCheck.newerThanManaged(tree))
                .as("artifacts distlock's POMs ask for above Spring Boot %s's versions (a Gradle build of a Boot %s "
                        + "application would get them); declare Spring and Boot optional and the rest at the lowest "
                        + "version we support", System.getProperty("distlock.consumer.boot"),
                        System.getProperty("distlock.consumer.boot"))
                .isEmpty();
    }
}

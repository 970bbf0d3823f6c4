package io.distlock.consumercheck;

import java.math.BigInteger;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * What a resolver that picks the highest version asked for anywhere in the graph (Gradle's, with
 * the application's Spring Boot BOM as a {@code platform()}) would do with a Maven dependency tree
 * resolved under that BOM: every node of a watched group whose POM asks for a newer version than
 * the BOM gave it is a version the application's Boot would lose to.
 */
final class HighestVersionCheck {

    /** Groups whose artifacts must never be pulled above the application's Boot: Spring, Lettuce, Micrometer, Reactor. */
    static final List<String> WATCHED_GROUPS = List.of("org.springframework", "io.lettuce", "io.micrometer",
            "io.projectreactor");

    /**
     * Orders versions by their dot- or dash-separated parts, numbers as numbers ({@code 4.1.118.Final}
     * before {@code 4.1.119.Final}, {@code 1.9} before {@code 1.15}); a qualifier such as {@code RC1}
     * counts above the release it precedes, which errs on the side of reporting.
     */
    static final Comparator<String> VERSIONS = (a, b) -> {
        String[] left = a.split("[.-]");
        String[] right = b.split("[.-]");
        for (int i = 0; i < Math.min(left.length, right.length); i++) {
            int order = part(left[i], right[i]);
            if (order != 0) {
                return order;
            }
        }
        return Integer.compare(left.length, right.length);
    };

    private HighestVersionCheck() {
    }

    /**
     * @param tree the lines of {@code dependency:tree -Dverbose}, resolved under the application's BOM
     * @return one line per node of a watched group asking for more than the version the tree resolved
     *         its artifact to: empty when the published POMs are safe
     */
    static List<String> newerThanManaged(List<String> tree) {
        List<TreeNode> nodes = tree.stream().map(TreeNode::parse).flatMap(Optional::stream).toList();
        Map<String, String> resolved = new HashMap<>();
        nodes.stream().filter(node -> !node.omitted()).forEach(node -> resolved.put(node.key(), node.version()));
        return nodes.stream()
                .filter(node -> watched(node.groupId()))
                .filter(node -> VERSIONS.compare(node.requested(), resolved.getOrDefault(node.key(), node.version())) > 0)
                .map(node -> node.key() + " asks for " + node.requested() + ", the application's Boot gives "
                        + resolved.getOrDefault(node.key(), node.version()))
                .distinct()
                .toList();
    }

    private static boolean watched(String groupId) {
        return WATCHED_GROUPS.stream().anyMatch(group -> groupId.equals(group) || groupId.startsWith(group + "."));
    }

    private static int part(String left, String right) {
        boolean numbers = Stream.of(left, right).allMatch(part -> part.chars().allMatch(Character::isDigit));
        return numbers ? new BigInteger(left).compareTo(new BigInteger(right))
                : left.compareTo(right);
    }
}

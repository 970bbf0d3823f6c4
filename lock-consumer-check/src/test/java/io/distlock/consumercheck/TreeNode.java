package io.distlock.consumercheck;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One line of {@code mvn dependency:tree -Dverbose} in text form: an artifact, the version the
 * build resolved it to, the version its POM asked for when dependency management replaced it
 * ({@code version managed from ...}), and whether the node was omitted (a duplicate, or the
 * loser of a conflict).
 *
 * @param groupId    the artifact's group
 * @param artifactId the artifact's id
 * @param version    the version shown on the line
 * @param managedFrom the version the declaring POM asked for, if management replaced it
 * @param omitted    whether Maven left this node out of the resolved graph
 */
record TreeNode(String groupId, String artifactId, String version, Optional<String> managedFrom, boolean omitted) {

    // After the tree's drawing characters: an optional "(" of an omitted node, then
    // group:artifact:type[:classifier]:version:scope, then the notes.
    private static final Pattern LINE = Pattern.compile(
            "^[|+\\\\\\- ]*(\\()?([^:\\s()]+):([^:\\s]+):[^:\\s]+(?::[^:\\s]+)?:([^:\\s]+):[a-z]+(.*)$");
    private static final Pattern MANAGED_FROM = Pattern.compile("version managed from ([^;\\s)]+)");

    /**
     * @param line a line of the tree
     * @return its node, or empty for a line that is none (the root has no scope)
     */
    static Optional<TreeNode> parse(String line) {
        Matcher node = LINE.matcher(line);
        if (!node.matches()) {
            return Optional.empty();
        }
        Matcher managed = MANAGED_FROM.matcher(node.group(5));
        return Optional.of(new TreeNode(node.group(2), node.group(3), node.group(4),
                managed.find() ? Optional.of(managed.group(1)) : Optional.empty(), node.group(1) != null));
    }

    /** @return the version the declaring POM asked for: what a highest-version-wins resolver weighs */
    String requested() {
        return managedFrom.orElse(version);
    }

    /** @return {@code groupId:artifactId} */
    String key() {
        return groupId + ":" + artifactId;
    }
}

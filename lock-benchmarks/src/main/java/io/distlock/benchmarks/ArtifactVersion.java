package io.distlock.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** Reads a library's version from the Maven metadata its jar carries (kept in the fat jar too). */
final class ArtifactVersion {

    private ArtifactVersion() {
    }

    /**
     * @param groupId    the library's group id
     * @param artifactId the library's artifact id
     * @return its version, or {@code "unknown"} if the class path has no metadata for it
     */
    static String of(String groupId, String artifactId) {
        String resource = "/META-INF/maven/" + groupId + "/" + artifactId + "/pom.properties";
        try (InputStream in = ArtifactVersion.class.getResourceAsStream(resource)) {
            if (in == null) {
                return "unknown";
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }
}

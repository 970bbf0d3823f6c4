package io.distlock.spring;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The API package does not depend on the advice that implements it: the advice depends on the API
 * (it implements {@link LockContext}), and what both need lives in {@code io.distlock.spring.internal}.
 * Read from the compiled classes by the JDK's {@code jdeps}.
 */
class PackageDependenciesTest {

    private static final Pattern EDGE = Pattern.compile("^\\s+(io\\.distlock\\.\\S+)\\s+->\\s+(io\\.distlock\\.\\S+)",
            Pattern.MULTILINE);

    @Test
    void theApiPackageDoesNotDependOnTheAdvice() throws Exception {
        Set<String> edges = packageEdges(Path.of(DistributedLock.class.getProtectionDomain().getCodeSource()
                .getLocation().toURI()));

        assertThat(edges).as("the check reads the starter's dependencies")
                .contains("io.distlock.spring.aop -> io.distlock.spring");
        assertThat(edges).doesNotContain("io.distlock.spring -> io.distlock.spring.aop");
    }

    private static Set<String> packageEdges(Path classes) {
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow();
        StringWriter out = new StringWriter();
        int exit = jdeps.run(new PrintWriter(out), new PrintWriter(out), "-verbose:package", "-filter:none",
                classes.toString());
        assertThat(exit).as("jdeps: %s", out).isZero();
        Matcher edge = EDGE.matcher(out.toString());
        return edge.results().map(m -> m.group(1) + " -> " + m.group(2)).collect(Collectors.toSet());
    }
}

package io.distlock.spring;

import io.distlock.core.ApiSurface;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the starter offers applications (the annotation, {@link LockContext}, the configuration
 * types, the actuator endpoint, the meters) shows none of its own implementation (the advice in
 * {@code io.distlock.spring.aop}, what it shares with the API in {@code io.distlock.spring.internal})
 * and none of lock-core's ({@code io.distlock.core.internal}): those
 * change in any release. It reads the auto-configuration's jar; {@code lock-spring-boot3-adapter}'s
 * health types extend Spring Boot 3.5 classes, which the Boot 4 build's tests cannot load.
 */
class ApiSurfaceTest {

    private static final Set<String> API_PACKAGES = Set.of("io.distlock.spring", "io.distlock.spring.autoconfigure",
            "io.distlock.spring.actuate", "io.distlock.spring.metrics", "io.distlock.spring.web");

    @Test
    void noApiTypeShowsAnInternalOne() throws Exception {
        ApiSurface surface = new ApiSurface(DistributedLock.class, API_PACKAGES,
                pkg -> ApiSurface.inPackage(pkg, "io.distlock.spring.aop")
                        || ApiSurface.inPackage(pkg, "io.distlock.spring.internal")
                        || ApiSurface.inPackage(pkg, "io.distlock.core.internal"));

        assertThat(surface.apiTypes()).contains(DistributedLock.class, LockContext.class);
        assertThat(surface.leaks()).as("internal types in the API").isEmpty();
    }
}

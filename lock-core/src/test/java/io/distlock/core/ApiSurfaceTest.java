package io.distlock.core;

import io.distlock.core.internal.engine.Hold;
import io.distlock.core.internal.engine.LockKeys;
import io.distlock.core.internal.engine.ReleaseReply;
import io.distlock.core.surfacefixture.LeakyApi;
import org.junit.jupiter.api.Test;

import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * lock-core's module descriptor exports the API packages and nothing else, everything it keeps to
 * itself lives under {@code io.distlock.core.internal}, and the API shows no internal type
 * ({@link ApiSurface}). The internal packages may change in any release.
 */
class ApiSurfaceTest {

    /** What users build on. */
    private static final Set<String> API_PACKAGES = Set.of("io.distlock.core", "io.distlock.core.observation",
            "io.distlock.core.metrics");
    /** The implementation, sub-packages included. */
    private static final String INTERNAL = "io.distlock.core.internal";

    private final ApiSurface surface = new ApiSurface(LockClient.class, API_PACKAGES, ApiSurfaceTest::internal);

    private static boolean internal(String pkg) {
        return ApiSurface.inPackage(pkg, INTERNAL);
    }

    @Test
    void theModuleExportsTheApiPackagesOnly() {
        ModuleDescriptor module = ModuleFinder.of(surface.classes()).findAll().iterator().next().descriptor();

        assertThat(module.name()).isEqualTo("io.distlock.core");
        assertThat(module.exports()).allSatisfy(exported -> assertThat(exported.isQualified()).isFalse());
        assertThat(module.exports().stream().map(ModuleDescriptor.Exports::source))
                .containsExactlyInAnyOrderElementsOf(API_PACKAGES);
        assertThat(module.packages()).as("every package the module does not export is internal")
                .allMatch(pkg -> API_PACKAGES.contains(pkg) || internal(pkg));
        assertThat(module.opens()).isEmpty();
    }

    @Test
    void noApiTypeShowsAnInternalOne() throws Exception {
        assertThat(surface.apiTypes()).contains(LockClient.class, MultiLock.class);
        assertThat(surface.leaks()).as("internal types in the API").isEmpty();
    }

    @Test
    void theCheckFindsInternalTypesInSupertypesBoundsAndSignatures() throws Exception {
        ApiSurface leaky = new ApiSurface(LeakyApi.class, Set.of(LeakyApi.class.getPackageName()),
                ApiSurfaceTest::internal);

        assertThat(leaky.leaks()).containsExactlyInAnyOrder(
                LeakyApi.class.getName() + " shows " + LockKeys.class.getName(),
                LeakyApi.class.getName() + " shows " + Hold.class.getName(),
                LeakyApi.class.getName() + " shows " + ReleaseReply.class.getName());
    }
}

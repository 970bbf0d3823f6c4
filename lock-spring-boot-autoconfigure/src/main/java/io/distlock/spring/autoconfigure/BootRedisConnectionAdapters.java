package io.distlock.spring.autoconfigure;

import org.springframework.beans.factory.BeanClassLoaderAware;
import org.springframework.context.annotation.ImportSelector;
import org.springframework.core.type.AnnotationMetadata;
import org.springframework.util.ClassUtils;

import java.util.List;

/**
 * Imports, with {@link DistLockAutoConfiguration}, the adapters that read Spring Boot's Redis
 * connection details into a {@code BootRedisConnection}: one per Boot generation, each compiled
 * against its own and applying only there (its class condition). Imported rather than listed as
 * auto-configurations of their own, so that an application or test that imports
 * {@link DistLockAutoConfiguration} alone still connects where Boot's connection details say.
 * The Boot 3.5 adapter is in {@code lock-spring-boot3-adapter}, which the starter brings.
 */
final class BootRedisConnectionAdapters implements ImportSelector, BeanClassLoaderAware {

    /** Spring Boot 4's adapter, then 3.5's. */
    private static final List<String> ADAPTERS = List.of(
            "io.distlock.spring.internal.boot4.BootRedisConnectionConfiguration",
            "io.distlock.spring.internal.boot3.BootRedisConnectionConfiguration");

    private ClassLoader classLoader = BootRedisConnectionAdapters.class.getClassLoader();

    @Override
    public void setBeanClassLoader(ClassLoader classLoader) {
        this.classLoader = classLoader;
    }

    /** @return the adapters on the classpath; their class conditions pick the one that applies */
    @Override
    public String[] selectImports(AnnotationMetadata importingClass) {
        return ADAPTERS.stream().filter(adapter -> ClassUtils.isPresent(adapter, classLoader)).toArray(String[]::new);
    }
}

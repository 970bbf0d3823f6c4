package io.distlock.spring.metrics;

import io.distlock.core.LockClient;
import io.distlock.core.metrics.LockMeterNames;
import io.distlock.core.metrics.LockMetrics;
import io.distlock.spring.autoconfigure.DistLockAutoConfiguration;
import io.distlock.spring.autoconfigure.DistLockProperties;
import io.distlock.spring.autoconfigure.RedLockNodes;
import io.distlock.spring.internal.CancelledCalls;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;

import java.util.List;
import java.util.Locale;

/**
 * Registers {@link DistLockMetrics} when the application has a Micrometer {@link MeterRegistry}
 * and a {@link LockClient}; Spring Boot binds it to the registry. The registry's auto-configuration
 * is referred to by name, for both Spring Boot generations, which keep it in different packages.
 */
@AutoConfiguration(after = DistLockAutoConfiguration.class, afterName = {
        // Spring Boot 4's meter registry auto-configuration, then 3.5's: after them, the
        // application's registry is defined, which @ConditionalOnBean looks for.
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration"})
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean({MeterRegistry.class, LockClient.class})
public final class DistLockMetricsAutoConfiguration {

    /**
     * An application's own {@link LockMetrics} (the starter's is one) replaces it, so that the
     * client's events are not counted twice.
     *
     * @param client the lock client to measure
     * @param nodes  RedLock's masters, if any, measured with type {@code red_lock}
     * @return the binder
     */
    @Bean
    @ConditionalOnMissingBean(LockMetrics.class)
    DistLockMetrics distLockMetrics(LockClient client, ObjectProvider<RedLockNodes> nodes) {
        RedLockNodes masters = nodes.getIfAvailable();
        return new DistLockMetrics(client, masters == null ? List.of() : masters.clients());
    }

    /**
     * @param registry the application's meter registry
     * @return counts the {@code @DistributedLock} calls stopped because their lease was lost, in
     *         {@code distlock.cancelled} (tags {@code name}, {@code type})
     */
    @Bean
    @ConditionalOnMissingBean
    CancelledCalls distLockCancelledCalls(MeterRegistry registry) {
        return (name, type) -> Counter.builder(LockMeterNames.CANCELLED)
                .description("Locked calls stopped because their lease was lost")
                .tag(LockMeterNames.NAME, name).tag(LockMeterNames.TYPE, type.name().toLowerCase(Locale.ROOT))
                .register(registry).increment();
    }

    /**
     * Spring Boot applies it to the application's meter registries.
     *
     * @param properties {@code distlock.metrics.max-names}
     * @return the cap on distinct {@code name} tags of the {@code distlock.*} meters
     */
    @Bean
    MeterFilter distLockNameLimit(DistLockProperties properties) {
        return LockNameLimit.of(properties.getMetrics().getMaxNames());
    }
}

package io.distlock.spring;

import org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.observation.ObservationAutoConfiguration;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthEndpoint;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration;
import org.springframework.boot.autoconfigure.data.redis.RedisConnectionDetails;
import org.springframework.context.ApplicationContext;

/**
 * What differs between the Spring Boot generations for the starter's tests, which run on both:
 * this is Spring Boot 3.5's, with the shape of the starter's own (Spring Boot 4) one.
 */
// The shared tests take each generation's types from here without naming them: the type a caller
// assigns the result to chooses the type parameter, which no argument mentions.
@SuppressWarnings("TypeParameterUnusedInFormals")
public final class BootGeneration {

    private BootGeneration() {
    }

    /** @return Spring Boot's Redis auto-configuration */
    public static Class<?> redisAutoConfiguration() {
        return RedisAutoConfiguration.class;
    }

    /** @return the type of Spring Boot's Redis connection-details bean */
    @SuppressWarnings("unchecked")
    public static <T> Class<T> redisConnectionDetailsType() {
        return (Class<T>) RedisConnectionDetails.class;
    }

    /** @return connection details of one Redis server, as {@code @ServiceConnection} registers them */
    public static <T> T standaloneRedis(String host, int port) {
        return cast(new RedisConnectionDetails() {
            @Override
            public Standalone getStandalone() {
                return Standalone.of(host, port);
            }
        });
    }

    /** @return the auto-configurations that give an application a meter registry */
    public static Class<?>[] metricsAutoConfigurations() {
        return new Class<?>[] {MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
                SimpleMetricsExportAutoConfiguration.class};
    }

    /**
     * @return the auto-configurations that give an application an observation registry, whose
     *         meter handler times observations when there is a meter registry too
     */
    public static Class<?>[] observationAutoConfigurations() {
        return new Class<?>[] {ObservationAutoConfiguration.class};
    }

    /** @return distlock's health auto-configuration of this generation */
    public static Class<?> healthAutoConfiguration() {
        return io.distlock.spring.actuate.boot3.DistLockHealthAutoConfiguration.class;
    }

    /** @return what the {@code distlockHealthIndicator} bean reports now, with details */
    public static HealthReading health(ApplicationContext context) {
        Health health = context.getBean(HealthReading.INDICATOR_BEAN, HealthIndicator.class).getHealth(true);
        return new HealthReading(health.getStatus().getCode(), health.getDetails());
    }

    /** @return the status the health endpoint shows for one component, e.g. {@code distlock} */
    public static String healthEndpointStatus(ApplicationContext context, String component) {
        return context.getBean(HealthEndpoint.class).healthForPath(component).getStatus().getCode();
    }

    @SuppressWarnings("unchecked")
    private static <T> T cast(Object details) {
        return (T) details;
    }
}

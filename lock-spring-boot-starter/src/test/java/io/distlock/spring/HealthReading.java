package io.distlock.spring;

import java.util.Map;

/**
 * What distlock's health indicator reported, in terms common to both Spring Boot generations
 * (see {@link BootGeneration#health}).
 *
 * @param status  {@code UP}, {@code DOWN}, ...
 * @param details the details shown with it
 */
public record HealthReading(String status, Map<String, Object> details) {

    /** The bean name of distlock's health indicator, on both generations. */
    public static final String INDICATOR_BEAN = "distlockHealthIndicator";
}

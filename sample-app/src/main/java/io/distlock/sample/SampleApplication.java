package io.distlock.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A small order service on the distlock starter: orders processed exactly once, payments charged
 * once, stock reserved for several SKUs at once, a daily report built by one caller at a time.
 * Configuration is in application.yml; metrics are at {@code /actuator/prometheus}.
 */
@SpringBootApplication
public class SampleApplication {

    /**
     * @param args Spring Boot arguments
     */
    public static void main(String[] args) {
        SpringApplication.run(SampleApplication.class, args);
    }
}

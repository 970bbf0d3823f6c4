package io.distlock.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A small order service that processes each order exactly once, however many requests race for
 * it, by holding a distlock lock per order.
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

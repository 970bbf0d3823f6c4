package com.example.invoices;

import org.springframework.boot.CommandLineRunner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * The smallest application on the distlock starter: one {@code @DistributedLock} method, called
 * once at startup, then the application exits. Run it with {@code REDIS_URL} pointing at a Redis.
 */
@SpringBootApplication
public class MinimalApplication {

    /**
     * @param args Spring Boot arguments
     */
    public static void main(String[] args) {
        SpringApplication.run(MinimalApplication.class, args).close();
    }

    @Bean
    CommandLineRunner sendOneInvoice(InvoiceService invoices) {
        return args -> System.out.println(invoices.send("2026-0042"));
    }
}

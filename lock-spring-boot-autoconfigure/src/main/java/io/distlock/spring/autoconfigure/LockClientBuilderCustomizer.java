package io.distlock.spring.autoconfigure;

import io.distlock.core.LockClient;

/**
 * A bean that adjusts the {@link LockClient.Builder} of every lock client the starter
 * auto-configures: the {@link LockClient} bean and, with {@code distlock.redlock.nodes}, the client
 * of each RedLock master. It runs after the builder got everything from {@code distlock.*} and
 * from Spring Boot's Redis connection, so what it sets wins, except for a RedLock master's address
 * ({@code distlock.redlock.nodes}), which is set after it; several run in their
 * {@link org.springframework.core.annotation.Order @Order}. Use it for what properties cannot
 * express, such as a {@link LockClient.Builder#listener listener} or Lettuce
 * {@link LockClient.Builder#clientResources resources} of the application's own.
 *
 * <pre>{@code
 * @Bean
 * LockClientBuilderCustomizer auditLocks(AuditLog audit) {
 *     return builder -> builder.listener(new AuditingLockListener(audit));
 * }
 * }</pre>
 *
 * Not called when the application defines its own {@link LockClient} bean.
 */
@FunctionalInterface
public interface LockClientBuilderCustomizer {

    /**
     * @param builder the builder of an auto-configured lock client, with the starter's settings
     *                applied
     */
    void customize(LockClient.Builder builder);
}

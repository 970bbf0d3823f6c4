package io.distlock.sample;

import io.distlock.core.LockClient;
import io.distlock.core.LockTemplate;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Duration;

/**
 * Wires the lock engine by hand. (The Spring Boot starter will do this from application.yml.)
 */
@Configuration(proxyBeanMethods = false)
class LockConfiguration {

    @Bean(destroyMethod = "close")
    LocalRedis localRedis(@Value("${sample.redis-url:}") String redisUrl) {
        return LocalRedis.resolve(redisUrl);
    }

    @Bean(destroyMethod = "close")
    LockClient lockClient(LocalRedis redis) {
        return LockClient.builder().redisUri(redis.uri()).build();
    }

    @Bean
    LockTemplate lockTemplate(LockClient client) {
        return new LockTemplate(client, Duration.ofSeconds(5));
    }
}

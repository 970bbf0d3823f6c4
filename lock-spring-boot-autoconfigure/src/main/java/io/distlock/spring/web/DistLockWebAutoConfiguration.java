package io.distlock.spring.web;

import io.distlock.core.LockClient;
import io.distlock.spring.autoconfigure.DistLockAutoConfiguration;
import io.distlock.spring.autoconfigure.DistLockProperties;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;

/**
 * In a Spring MVC or WebFlux application, a lock that was not acquired in time answers as a
 * ProblemDetail ({@code distlock.web.busy-status}, 409 Conflict by default);
 * {@code distlock.web.enabled=false} turns it off.
 */
@AutoConfiguration(after = DistLockAutoConfiguration.class)
@ConditionalOnWebApplication
@ConditionalOnClass(ProblemDetail.class)
@ConditionalOnBean(LockClient.class)
@ConditionalOnProperty(prefix = "distlock.web", name = "enabled", matchIfMissing = true)
public final class DistLockWebAutoConfiguration {

    /**
     * @param properties the distlock settings
     * @return the controller advice
     */
    @Bean
    LockBusyProblemDetails distlockBusyProblemDetails(DistLockProperties properties) {
        DistLockProperties.Web web = properties.getWeb();
        return new LockBusyProblemDetails(HttpStatusCode.valueOf(web.getBusyStatus()), web.getRetryAfter());
    }
}

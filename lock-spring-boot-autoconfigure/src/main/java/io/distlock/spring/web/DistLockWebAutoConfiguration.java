package io.distlock.spring.web;

import io.distlock.core.LockClient;
import io.distlock.spring.autoconfigure.DistLockAutoConfiguration;
import io.distlock.spring.autoconfigure.DistLockProperties;
import io.distlock.spring.autoconfigure.InvalidLockPropertyException;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;

import java.time.Duration;

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
     * @param properties the distlock settings, checked here: the lock client may be the
     *                   application's, made without them
     * @return the controller advice
     * @throws InvalidLockPropertyException if a {@code distlock.web.*} setting cannot work
     */
    @Bean
    LockBusyProblemDetails distlockBusyProblemDetails(DistLockProperties properties) {
        DistLockProperties.Web web = properties.getWeb();
        int status = web.getBusyStatus();
        if (status < 400 || status > 599) {
            throw new InvalidLockPropertyException("distlock.web.busy-status", "'" + status
                    + "' is not an HTTP error status", "Use a status from 400 to 599, e.g. 409 (the default), 423 or 503.");
        }
        Duration retryAfter = web.getRetryAfter();
        if (retryAfter != null && retryAfter.isNegative()) {
            throw new InvalidLockPropertyException("distlock.web.retry-after", "'" + retryAfter + "' is negative",
                    "Use a duration of zero or more, e.g. 2s, or leave it empty for no Retry-After.");
        }
        return new LockBusyProblemDetails(HttpStatusCode.valueOf(status), retryAfter);
    }
}

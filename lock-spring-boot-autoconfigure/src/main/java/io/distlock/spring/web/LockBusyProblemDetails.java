package io.distlock.spring.web;

import io.distlock.core.LockAcquisitionException;
import org.jspecify.annotations.Nullable;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

import java.time.Duration;

/**
 * Answers a {@link LockAcquisitionException} thrown to a controller as a ProblemDetail: a busy
 * lock is an expected outcome, not a server error. The answer names the lock's group (the
 * annotation's static name), never the key's value, and is logged at debug level without a stack
 * trace. As the last of the controller advice, it yields to every {@code @ExceptionHandler} of
 * the application that takes the exception.
 */
@RestControllerAdvice
@Order(Ordered.LOWEST_PRECEDENCE)
final class LockBusyProblemDetails {

    private static final System.Logger LOG = System.getLogger(LockBusyProblemDetails.class.getName());

    private final HttpStatusCode status;
    private final @Nullable Duration retryAfter;

    /**
     * @param status     the status of the answer
     * @param retryAfter the answer's Retry-After, or {@code null} for none
     */
    LockBusyProblemDetails(HttpStatusCode status, @Nullable Duration retryAfter) {
        this.status = status;
        this.retryAfter = retryAfter;
    }

    /**
     * @param busy what the lock advice or the template threw
     * @return the answer
     */
    @ExceptionHandler(LockAcquisitionException.class)
    ResponseEntity<ProblemDetail> busy(LockAcquisitionException busy) {
        String lock = busy.getGroup();
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, lock == null
                ? "A lock this request needs is held by another caller. Try again later."
                : "Lock '" + lock + "' is held by another caller. Try again later.");
        problem.setTitle("Lock busy");
        if (lock != null) {
            problem.setProperty("lock", lock);
        }
        LOG.log(System.Logger.Level.DEBUG, () -> "Answered " + status.value() + ": lock "
                + (lock == null ? "" : "'" + lock + "' ") + "busy");
        ResponseEntity.BodyBuilder answer = ResponseEntity.status(status);
        if (retryAfter != null) {
            answer.header(HttpHeaders.RETRY_AFTER, Long.toString(ceilSeconds(retryAfter)));
        }
        return answer.body(problem);
    }

    private static long ceilSeconds(Duration duration) {
        long seconds = duration.getSeconds();
        return duration.getNano() > 0 ? seconds + 1 : seconds;
    }
}

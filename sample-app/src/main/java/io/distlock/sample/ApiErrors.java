package io.distlock.sample;

import io.distlock.core.LockAcquisitionException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Maps lock and input failures to HTTP answers: a lock that stayed busy, a write refused for a
 * stale fencing token, or an order placed twice is a 409; bad input a 400.
 */
@RestControllerAdvice
class ApiErrors {

    @ExceptionHandler(LockAcquisitionException.class)
    ProblemDetail busy(LockAcquisitionException e) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, e.getMessage());
    }

    @ExceptionHandler(AccountStore.StaleTokenException.class)
    ProblemDetail stale(AccountStore.StaleTokenException e) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, e.getMessage());
    }

    @ExceptionHandler(DuplicateKeyException.class)
    ProblemDetail duplicate(DuplicateKeyException e) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, "It exists already");
    }

    @ExceptionHandler(IllegalArgumentException.class)
    ProblemDetail badInput(IllegalArgumentException e) {
        return ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, e.getMessage());
    }
}

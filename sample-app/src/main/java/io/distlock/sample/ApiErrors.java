package io.distlock.sample;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Maps the sample's own failures to HTTP answers: a write refused for a stale fencing token, or an
 * order placed twice is a 409; bad input a 400. A lock that stayed busy needs nothing here: the
 * starter answers it with a 409 ProblemDetail.
 */
@RestControllerAdvice
class ApiErrors {

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

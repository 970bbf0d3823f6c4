package io.distlock.spring.aop;

/**
 * A {@code @DistributedLock} that cannot work as written (a key naming no parameter, a malformed
 * key or duration, a return type the lock cannot cover, ...): found at startup, when Spring asks
 * whether the method is advised, and reported by {@link InvalidLockAnnotationFailureAnalyzer}.
 */
final class InvalidLockAnnotationException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final String where;

    /**
     * @param where   the annotation, e.g. {@code @DistributedLock on OrderService.process}
     * @param problem what is wrong with it, and what would work
     */
    InvalidLockAnnotationException(String where, String problem) {
        super(where + ": " + problem);
        this.where = where;
    }

    /**
     * @param where   the annotation, e.g. {@code @DistributedLock on OrderService.process}
     * @param problem what is wrong with it, and what would work
     * @param cause   what found it wrong (a parse error)
     */
    InvalidLockAnnotationException(String where, String problem, Throwable cause) {
        super(where + ": " + problem, cause);
        this.where = where;
    }

    /** @return the annotation, e.g. {@code @DistributedLock on OrderService.process} */
    String where() {
        return where;
    }
}

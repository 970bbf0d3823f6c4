/**
 * distlock's engine: Redis locks through Lettuce, without Spring. Only the API packages are
 * exported; {@code io.distlock.core.internal} and its sub-packages are the implementation, which
 * changes without notice.
 *
 * <p>Micrometer is optional: its modules are needed only by an application that hands the client an
 * {@code ObservationRegistry} or a {@code MeterRegistry}, and then brings them itself.
 *
 * <p>Every package is {@code @NullMarked} (JSpecify): nothing is null unless declared
 * {@code @Nullable}. Those annotations, and Error Prone's that the build's own checks read, are
 * needed at compile time only.
 */
module io.distlock.core {
    exports io.distlock.core;
    exports io.distlock.core.observation;
    exports io.distlock.core.metrics;

    requires transitive lettuce.core;
    requires io.netty.buffer;
    requires io.netty.common;
    requires reactor.core;
    requires static transitive micrometer.observation;
    requires static transitive micrometer.core;
    requires static transitive micrometer.commons;
    requires static transitive org.jspecify;
    requires static com.google.errorprone.annotations;
}

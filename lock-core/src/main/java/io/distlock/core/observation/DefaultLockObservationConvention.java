package io.distlock.core.observation;

import io.distlock.core.metrics.LockMeterNames;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names and key values of the engine's observations. Low cardinality (tags of the meters):
 * {@code name} (the lock's group, never its key), {@code type}, and for acquisitions
 * {@code result}. High cardinality (spans only): {@code lock}, the lock's name.
 *
 * <p>To change them, register a {@code GlobalObservationConvention<LockObservationContext>} with
 * the registry (a Spring Boot application: declare it as a bean), for example a subclass of this
 * one that adds key values; its {@code supportsContext} must accept the contexts of one
 * {@link LockObservationContext.Kind} only, since the two observations have different names.
 */
public class DefaultLockObservationConvention implements ObservationConvention<LockObservationContext> {

    /** The convention of acquisitions. */
    public static final DefaultLockObservationConvention ACQUIRE =
            new DefaultLockObservationConvention(LockObservationContext.Kind.ACQUIRE);
    /** The convention of holds. */
    public static final DefaultLockObservationConvention HELD =
            new DefaultLockObservationConvention(LockObservationContext.Kind.HELD);

    private final LockObservationContext.Kind kind;

    /**
     * @param kind acquisition or hold
     * @return the default convention of that kind's observations
     */
    public static DefaultLockObservationConvention of(LockObservationContext.Kind kind) {
        return kind == LockObservationContext.Kind.ACQUIRE ? ACQUIRE : HELD;
    }

    /** @param kind the observations this convention names */
    protected DefaultLockObservationConvention(LockObservationContext.Kind kind) {
        this.kind = kind;
    }

    @Override
    public String getName() {
        return kind.observationName();
    }

    @Override
    public String getContextualName(LockObservationContext context) {
        return kind.observationName() + " " + context.getGroup();
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(LockObservationContext context) {
        KeyValues keyValues = KeyValues.of(LockMeterNames.NAME, context.getGroup(), LockMeterNames.TYPE,
                context.getLockType());
        String result = context.getResult();
        return result == null ? keyValues : keyValues.and(LockMeterNames.RESULT, result);
    }

    @Override
    public KeyValues getHighCardinalityKeyValues(LockObservationContext context) {
        return KeyValues.of("lock", context.getLockName());
    }

    @Override
    public boolean supportsContext(Observation.Context context) {
        return context instanceof LockObservationContext lock && lock.getKind() == kind;
    }
}

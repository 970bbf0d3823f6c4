package io.distlock.core.observation;

import io.distlock.core.metrics.LockMeterNames;
import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

/**
 * What an observation of the lock engine is about: one acquisition ({@code distlock.acquire}) or
 * one hold ({@code distlock.held}) of one lock.
 */
public class LockObservationContext extends Observation.Context {

    /** The name of the event a failed lease renewal adds to the hold's observation ({@code distlock.held}). */
    public static final String RENEWAL_FAILED = "renewal.failed";

    /** Which of the two observations a context belongs to. */
    public enum Kind {
        /** An acquisition, from its start to its outcome: {@code distlock.acquire}. */
        ACQUIRE(LockMeterNames.ACQUIRE),
        /** A hold, from first hold to last release or loss: {@code distlock.held}. */
        HELD(LockMeterNames.HELD);

        private final String observationName;

        Kind(String observationName) {
            this.observationName = observationName;
        }

        /** @return the observation's name, which meters are named after */
        public String observationName() {
            return observationName;
        }
    }

    private final Kind kind;
    private final String lockName;
    private final String group;
    private final String lockType;
    private volatile @Nullable String result;

    /**
     * @param kind     acquisition or hold
     * @param lockName the lock's name, e.g. {@code order:42} (high cardinality)
     * @param group    the name it is counted under, e.g. {@code order} (low cardinality)
     * @param lockType the lock's type, e.g. {@code reentrant}
     */
    public LockObservationContext(Kind kind, String lockName, String group, String lockType) {
        this.kind = kind;
        this.lockName = lockName;
        this.group = group;
        this.lockType = lockType;
    }

    /** @return acquisition or hold */
    public Kind getKind() {
        return kind;
    }

    /** @return the lock's name (high cardinality: the resolved key) */
    public String getLockName() {
        return lockName;
    }

    /** @return the low-cardinality name the lock is counted under */
    public String getGroup() {
        return group;
    }

    /** @return the lock's type */
    public String getLockType() {
        return lockType;
    }

    /**
     * @return for an ended acquisition, its outcome: {@code acquired}, {@code timeout},
     *         {@code interrupted} or {@code error}; otherwise {@code null}
     */
    public @Nullable String getResult() {
        return result;
    }

    /**
     * Set by the engine when the acquisition ends, before the observation stops.
     *
     * @param result the acquisition's outcome
     */
    public void setResult(String result) {
        this.result = result;
    }
}

package io.distlock.spring.metrics;

import io.distlock.core.metrics.LockMeterNames;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.config.MeterFilterReply;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Caps how many distinct {@code name} tags the {@code distlock.*} meters get, those made from
 * observations included: past the cap, the meters of further names are not registered, and one
 * warning says so. Names that carry keys would otherwise make a series per key.
 */
final class LockNameLimit implements MeterFilter {

    private static final System.Logger LOG = System.getLogger(LockNameLimit.class.getName());

    private final int maxNames;
    private final AtomicBoolean warned = new AtomicBoolean();

    private LockNameLimit(int maxNames) {
        this.maxNames = maxNames;
    }

    /**
     * @param maxNames how many distinct names are measured
     * @return the filter
     */
    static MeterFilter of(int maxNames) {
        return MeterFilter.maximumAllowableTags(LockMeterNames.PREFIX, LockMeterNames.NAME, maxNames, new LockNameLimit(maxNames));
    }

    /** Called for the meters of a name past the cap: turns them away, and warns the first time. */
    @Override
    public MeterFilterReply accept(Meter.Id id) {
        if (warned.compareAndSet(false, true)) {
            LOG.log(System.Logger.Level.WARNING, "The distlock.* meters reached " + maxNames + " lock names "
                    + "(distlock.metrics.max-names); those of further names, first '" + id.getTag("name")
                    + "', are not registered. A lock name that carries a key (e.g. 'order-42') is a name of its "
                    + "own: name locks 'kind:id', or give them a static name, or raise the limit.");
        }
        return MeterFilterReply.DENY;
    }
}

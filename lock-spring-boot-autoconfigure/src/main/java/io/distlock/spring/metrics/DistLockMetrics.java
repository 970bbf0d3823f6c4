package io.distlock.spring.metrics;

import io.distlock.core.LockClient;
import io.distlock.core.metrics.LockMetrics;

import java.util.List;

/**
 * The {@code distlock.*} meters of the starter's {@link LockClient} and of RedLock's masters: lock-core's
 * {@link LockMetrics}, under the name the starter has always registered it by, so that an application's
 * own {@code DistLockMetrics} bean still replaces it. The meters are described on {@link LockMetrics}.
 */
public class DistLockMetrics extends LockMetrics {

    /** @param client the client whose locks are measured */
    public DistLockMetrics(LockClient client) {
        super(client);
    }

    /**
     * @param client         the client whose locks are measured
     * @param redLockMasters the clients of RedLock's masters, measured with type {@value #RED_LOCK_TYPE}
     * @see LockMetrics#LockMetrics(LockClient, List)
     */
    public DistLockMetrics(LockClient client, List<LockClient> redLockMasters) {
        super(client, redLockMasters);
    }
}

package io.distlock.benchmarks;

import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.locks.Lock;
import java.util.stream.Collectors;

/**
 * A lock workload. The throughput scenarios say how many threads run them, which locks they use,
 * and what one step of a thread's loop does and measures; the same workload runs against every
 * {@link LockBackend}. {@link #WATCHDOG} is not a loop but one long hold of many locks, measured by
 * {@link WatchdogRun}; {@link #PROCESSES} runs its loops in child JVMs, measured by {@link ProcessRun}.
 */
public enum Scenario {

    /** Every thread locks and unlocks its own key: lock+unlock pairs per second. */
    UNCONTENDED("pairs/s", "each thread loops lock(); unlock() on a key of its own; counts pairs") {
        @Override
        TimedLoad.StepFactory steps(LockBackend backend) {
            return worker -> {
                Lock lock = backend.lock("uncontended-" + worker);
                return latencies -> lockAndUnlock(lock);
            };
        }
    },

    /**
     * All threads lock and unlock one key: acquisitions (hand-offs) per second, and the time spent
     * inside {@code lock()}.
     */
    CONTENDED("hand-offs/s", "all threads loop lock(); unlock() on one key; counts acquisitions, "
            + "latency = time inside lock()") {
        @Override
        TimedLoad.StepFactory steps(LockBackend backend) {
            return handOffs(backend.lock("contended"));
        }
    },

    /** All threads take one fair lock in turn: hand-offs per second and the time inside lock(). */
    FAIR("hand-offs/s", "all threads loop lock(); unlock() on one fair lock; counts acquisitions, "
            + "latency = time inside lock()") {
        @Override
        TimedLoad.StepFactory steps(LockBackend backend) {
            return handOffs(backend.fairLock("fair"));
        }
    },

    /** All threads share the read lock of one read-write lock: read lock+unlock pairs per second. */
    READ("pairs/s", "all threads loop lock(); unlock() on the read lock of one read-write lock; counts pairs") {
        @Override
        TimedLoad.StepFactory steps(LockBackend backend) {
            return worker -> {
                Lock lock = backend.readLock("read");
                return latencies -> lockAndUnlock(lock);
            };
        }
    },

    /** Every thread takes a multi-lock over three keys of its own: all-or-nothing pairs per second. */
    MULTI("pairs/s", "each thread loops lock(); unlock() on a multi-lock over 3 keys of its own; counts pairs") {
        @Override
        TimedLoad.StepFactory steps(LockBackend backend) {
            return worker -> {
                Lock lock = backend.multiLock("multi-" + worker + "-a", "multi-" + worker + "-b",
                        "multi-" + worker + "-c");
                return latencies -> lockAndUnlock(lock);
            };
        }
    },

    /**
     * All threads take a permit of one semaphore of {@link #SEMAPHORE_PERMITS} permits and give it
     * back: permits taken per second, and the wait inside {@code acquire()}.
     */
    SEMAPHORE("permits/s", "all threads loop acquire(); release() on one semaphore of " + Scenario.SEMAPHORE_PERMITS
            + " permits (redisson: RPermitExpirableSemaphore without a lease; distlock: watchdog leases); counts "
            + "permits taken, latency = time inside acquire()") {
        @Override
        TimedLoad.StepFactory steps(LockBackend backend) {
            // Fetched per worker of each load: the keys are deleted after every load, and with
            // them Redisson's permit count, which fetching sets again.
            return worker -> handOffs(backend.permit("semaphore", SEMAPHORE_PERMITS)).forWorker(worker);
        }
    },

    /** One thread locks and unlocks one key: pairs per second and the latency of one pair. */
    SINGLE("pairs/s", "one thread loops lock(); unlock() on one key; latency = one pair") {
        @Override
        int threads(int configured) {
            return 1;
        }

        @Override
        TimedLoad.StepFactory steps(LockBackend backend) {
            return worker -> {
                Lock lock = backend.lock("single");
                return latencies -> {
                    long start = System.nanoTime();
                    lockAndUnlock(lock);
                    latencies.add(System.nanoTime() - start);
                };
            };
        }
    },

    /**
     * One client holds many locks without a lease for a long time: the watchdog's renewal commands
     * per round, locks lost, client CPU and heap per held lock.
     */
    WATCHDOG("renewal calls/round", "one client takes N locks without a lease (lock() from one thread) and "
            + "holds them; counts renewal script calls (INFO commandstats), lost locks, client CPU, heap per lock") {
        @Override
        boolean throughput() {
            return false;
        }

        @Override
        TimedLoad.StepFactory steps(LockBackend backend) {
            throw new UnsupportedOperationException("watchdog is measured by WatchdogRun, not by a timed load");
        }
    },

    /**
     * Several JVMs, each with several threads, contend for one lock name, then for 8: acquisitions
     * per second, how often and how far the lock moves between JVMs, and the wait inside lock().
     */
    PROCESSES("acquisitions/s", "N child JVMs x T threads loop lock(); unlock() on one lock name, then on 8 "
            + "names; counts acquisitions, hand-offs to another JVM, same-JVM streaks, shares, time inside lock()") {
        @Override
        boolean throughput() {
            return false;
        }

        @Override
        TimedLoad.StepFactory steps(LockBackend backend) {
            throw new UnsupportedOperationException("processes is measured by ProcessRun in child JVMs");
        }
    };

    /** The permit count of the {@link #SEMAPHORE} scenario's semaphore. */
    static final int SEMAPHORE_PERMITS = 2;

    private final String unit;
    private final String description;

    Scenario(String unit, String description) {
        this.unit = unit;
        this.description = description;
    }

    /** @return the name used on the command line and in the report, e.g. {@code "contended"} */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** @return unit of the scenario's throughput, e.g. {@code "pairs/s"} */
    public String unit() {
        return unit;
    }

    /** @return what the threads do and what is counted */
    public String description() {
        return description;
    }

    /**
     * @param configured the {@code --threads} option
     * @return how many threads run this scenario
     */
    int threads(int configured) {
        return configured;
    }

    /** @return whether the scenario is a timed load measured in rounds, see {@link #steps(LockBackend)} */
    boolean throughput() {
        return true;
    }

    /**
     * @param backend the lock implementation under test
     * @return the loop body of each worker thread of a {@linkplain #throughput() throughput} scenario
     */
    abstract TimedLoad.StepFactory steps(LockBackend backend);

    /** All threads loop lock(); unlock() on one shared lock, timing the wait inside lock(). */
    private static TimedLoad.StepFactory handOffs(Lock lock) {
        return worker -> latencies -> {
            long start = System.nanoTime();
            lock.lock();
            try {
                latencies.add(System.nanoTime() - start);
            } finally {
                lock.unlock();
            }
        };
    }

    /** The pair the throughput loops time: nothing runs between the two calls that could keep the lock. */
    @SuppressWarnings("LockNotBeforeTry")
    private static void lockAndUnlock(Lock lock) {
        lock.lock();
        lock.unlock();
    }

    /**
     * @param cliName a name as printed by {@link #cliName()}, any case
     * @return the scenario
     * @throws IllegalArgumentException if there is no such scenario
     */
    public static Scenario fromCliName(String cliName) {
        for (Scenario scenario : values()) {
            if (scenario.cliName().equalsIgnoreCase(cliName.trim())) {
                return scenario;
            }
        }
        throw new IllegalArgumentException("unknown scenario '" + cliName + "'; expected one of "
                + Arrays.stream(values()).map(Scenario::cliName).collect(Collectors.joining(", ")));
    }
}

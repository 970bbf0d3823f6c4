package io.distlock.core.metrics;

import io.distlock.core.LockClient;
import io.distlock.core.LockEvent;
import io.distlock.core.LockListener;
import io.distlock.core.RedLock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.jspecify.annotations.Nullable;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Publishes a {@link LockClient}'s events as Micrometer meters:
 * <ul>
 *   <li>{@code distlock.acquire}: timer of acquisitions, tags {@code name}, {@code type},
 *       {@code result} = acquired | timeout | interrupted | error, and {@code error} = none, or
 *       the class of the Redis failure;</li>
 *   <li>{@code distlock.held}: timer of how long locks were held (first hold to last release),
 *       {@code error} = none;</li>
 *   <li>(of a client that {@linkplain LockClient#isObserved() is observed}, these two timers come
 *       from the observation registry's meter handler instead, with the same tags, so they are
 *       not made here; the long task timers {@code distlock.acquire.active} and
 *       {@code distlock.held.active} then show acquisitions and holds in progress. An observed
 *       client's registry should have a meter handler, as Spring Boot's has)</li>
 *   <li>{@code distlock.active}, {@code distlock.waiting}: gauges of holders and waiters now;</li>
 *   <li>{@code distlock.watchdog.renewals}: counter, {@code result} = renewed | lost | error;</li>
 *   <li>{@code distlock.watchdog.locks}: gauge of holds the watchdog keeps alive (untagged);</li>
 *   <li>{@code distlock.lost}: counter of leases lost while held.</li>
 * </ul>
 * The {@code name} tag is the lock's group ({@link LockEvent#group()}): the annotation's static
 * name, never the resolved key, so the number of series stays bounded. The names are those of
 * {@link LockMeterNames}.
 *
 * <p>A plain-Java client gets these meters from {@link LockClient.Builder#meterRegistry}; the
 * Spring Boot starter binds one for its client and RedLock's masters to the application's registry.
 */
public class LockMetrics implements MeterBinder {

    private static final System.Logger LOG = System.getLogger(LockMetrics.class.getName());

    /** The {@code type} tag of the holds of RedLock masters. */
    public static final String RED_LOCK_TYPE = RedLock.LOCK_TYPE;

    private final LockClient client;
    private final List<LockClient> redLockMasters;
    private final Map<MeterKey, LockMeters> meters = new ConcurrentHashMap<>();
    private final AtomicBoolean bound = new AtomicBoolean();

    /** @param client the client whose locks are measured */
    public LockMetrics(LockClient client) {
        this(client, List.of());
    }

    /**
     * @param client         the client whose locks are measured
     * @param redLockMasters the clients of RedLock's masters: their holds are counted with type
     *                       {@value #RED_LOCK_TYPE}, one per master a RedLock call involves. A
     *                       master's client that is observed should report that type too
     *                       ({@code reportedLockType(RedLock.LOCK_TYPE)}, as the starter builds
     *                       them), since its timers come from its observations
     */
    public LockMetrics(LockClient client, List<LockClient> redLockMasters) {
        this.client = client;
        this.redLockMasters = List.copyOf(redLockMasters);
    }

    /**
     * Registers the meters with a registry and starts listening to the clients. Binds once (a
     * second call is logged and ignored, so events are never counted twice): to publish to several
     * registries, bind a {@code CompositeMeterRegistry}, as Spring Boot does.
     */
    @Override
    public void bindTo(MeterRegistry registry) {
        if (!bound.compareAndSet(false, true)) {
            LOG.log(System.Logger.Level.WARNING, getClass().getSimpleName() + " is already bound to a registry; ignoring " + registry
                    + " (bind a CompositeMeterRegistry to publish to several)");
            return;
        }
        Gauge.builder(LockMeterNames.WATCHDOG_LOCKS, this, LockMetrics::watchdogHolds)
                .description("Holds whose lease the watchdog keeps renewing")
                .register(registry);
        client.addListener(new ClientEvents(registry, client, null));
        redLockMasters.forEach(master -> master.addListener(new ClientEvents(registry, master, RED_LOCK_TYPE)));
    }

    private double watchdogHolds() {
        return client.watchdogHoldCount() + redLockMasters.stream().mapToInt(LockClient::watchdogHoldCount).sum();
    }

    /**
     * The events of one client, counted in the registry under the type given or each event's own;
     * timed here only if that client is not observed (then its observations are).
     */
    private final class ClientEvents implements LockListener {

        private final MeterRegistry registry;
        private final boolean timed;
        private final @Nullable String type;

        ClientEvents(MeterRegistry registry, LockClient source, @Nullable String type) {
            this.registry = registry;
            this.timed = !source.isObserved();
            this.type = type;
        }

        @Override
        public void onWaiting(LockEvent event) {
            meters(event).waiting.incrementAndGet();
        }

        @Override
        public void onAcquired(LockEvent event) {
            LockMeters m = meters(event);
            if (event.waited()) {
                m.waiting.decrementAndGet();
            }
            if (event.holdCount() == 1) {
                m.active.incrementAndGet();
            }
            if (timed) {
                m.timers().acquired.record(event.duration());
            }
        }

        @Override
        public void onAcquireFailed(LockEvent event) {
            LockMeters m = meters(event);
            if (event.waited()) {
                m.waiting.decrementAndGet();
            }
            if (timed) {
                m.timers().failed(event).record(event.duration());
            }
        }

        @Override
        public void onReleased(LockEvent event) {
            if (event.holdCount() == 0) {
                LockMeters m = meters(event);
                m.active.decrementAndGet();
                if (timed) {
                    m.timers().held.record(event.duration());
                }
            }
        }

        @Override
        public void onRenewed(LockEvent event) {
            meters(event).renewed.increment();
        }

        @Override
        public void onRenewalFailed(LockEvent event) {
            meters(event).renewalFailed.increment();
        }

        @Override
        public void onRenewalLost(LockEvent event) {
            meters(event).renewalLost.increment();
        }

        @Override
        public void onLost(LockEvent event) {
            LockMeters m = meters(event);
            m.active.decrementAndGet();
            m.lost.increment();
        }

        private LockMeters meters(LockEvent event) {
            return meters.computeIfAbsent(new MeterKey(event.group(), type != null ? type : event.lockType()),
                    key -> new LockMeters(registry, Tags.of(LockMeterNames.NAME, key.name(), LockMeterNames.TYPE, key.type())));
        }
    }

    private record MeterKey(String name, String type) {
    }

    /** The meters of one lock group and type, registered at its first event. */
    private static final class LockMeters {

        final AtomicInteger active = new AtomicInteger();
        final AtomicInteger waiting = new AtomicInteger();
        final Counter renewed;
        final Counter renewalLost;
        final Counter renewalFailed;
        final Counter lost;
        private final MeterRegistry registry;
        private final Tags tags;
        private volatile @Nullable Timers timers;

        LockMeters(MeterRegistry registry, Tags tags) {
            this.registry = registry;
            this.tags = tags;
            renewed = renewals(registry, tags, "renewed");
            renewalLost = renewals(registry, tags, "lost");
            renewalFailed = renewals(registry, tags, "error");
            lost = Counter.builder(LockMeterNames.LOST).tags(tags)
                    .description("Leases lost while their holder believed it held the lock")
                    .register(registry);
            Gauge.builder(LockMeterNames.ACTIVE, active, AtomicInteger::get).tags(tags)
                    .description("Locks held by this client now").register(registry);
            Gauge.builder(LockMeterNames.WAITING, waiting, AtomicInteger::get).tags(tags)
                    .description("Callers of this client waiting for a lock now").register(registry);
        }

        /** @return the acquire and held timers, registered at their first use (never, for an observed client) */
        Timers timers() {
            Timers made = timers;
            if (made == null) {
                synchronized (this) {
                    if (timers == null) {
                        timers = new Timers(registry, tags);
                    }
                    made = timers;
                }
            }
            return made;
        }

        private static Counter renewals(MeterRegistry registry, Tags tags, String result) {
            return Counter.builder(LockMeterNames.WATCHDOG_RENEWALS).tags(tags).tag(LockMeterNames.RESULT, result)
                    .description("Watchdog lease renewals, by outcome")
                    .register(registry);
        }
    }

    /**
     * The acquire and held timers of one lock group and type, tagged as Micrometer's meter
     * observation handler tags those it makes from observations ({@code error} = none, or the
     * exception's class), so that both make one family of series.
     */
    private static final class Timers {

        private static final String NO_ERROR = "none";

        final Timer acquired;
        final Timer held;
        private final Timer timedOut;
        private final Timer busy;
        private final Timer interrupted;
        private final MeterRegistry registry;
        private final Tags tags;

        Timers(MeterRegistry registry, Tags tags) {
            this.registry = registry;
            this.tags = tags;
            acquired = acquireTimer("acquired", NO_ERROR);
            timedOut = acquireTimer("timeout", NO_ERROR);
            busy = acquireTimer("busy", NO_ERROR);
            interrupted = acquireTimer("interrupted", NO_ERROR);
            held = Timer.builder(LockMeterNames.HELD).tags(tags).tag(LockMeterNames.ERROR, NO_ERROR)
                    .description("How long locks were held, from first hold to last release")
                    .register(registry);
        }

        /** @return the timer of an acquisition that failed so */
        Timer failed(LockEvent event) {
            return switch (Objects.requireNonNull(event.failure())) {
                case TIMEOUT -> timedOut;
                case BUSY -> busy;
                case INTERRUPTED -> interrupted;
                case ERROR -> acquireTimer("error",
                        event.cause() == null ? NO_ERROR : event.cause().getClass().getSimpleName());
            };
        }

        private Timer acquireTimer(String result, String error) {
            return Timer.builder(LockMeterNames.ACQUIRE).tags(tags).tag(LockMeterNames.RESULT, result)
                    .tag(LockMeterNames.ERROR, error)
                    .description("Time spent acquiring locks, by outcome")
                    .register(registry);
        }
    }
}

package io.distlock.spring.internal;

import io.distlock.core.LockClient;
import io.distlock.core.LockInfo;
import org.jspecify.annotations.Nullable;

import java.lang.System.Logger.Level;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * distlock's health check, whichever generation of Spring Boot's health API shows it: UP when
 * Redis answers a {@code PING} within the command timeout, with the round trip, the key prefix,
 * how many leases the watchdog renews and how many callers of this instance hold or wait for a
 * lock; DOWN with the reason, one line, otherwise. Never credentials.
 *
 * <p>A probe runs every few seconds, so a Redis that is away must not write a stack trace each
 * time: the check logs one line when the state changes (a WARN when it goes DOWN, an INFO when it
 * comes back UP) and nothing while it stays. Shared by the Spring Boot 4 indicator
 * ({@code io.distlock.spring.actuate}) and the 3.5 one ({@code io.distlock.spring.actuate.boot3}).
 */
public final class DistLockHealthCheck {

    private static final System.Logger LOG = System.getLogger(DistLockHealthCheck.class.getName());

    private final LockClient client;
    /** The state the last check found: {@code null} before the first. */
    private final AtomicReference<@Nullable Boolean> lastUp = new AtomicReference<>();

    /**
     * What a check found.
     *
     * @param up      whether Redis answered
     * @param details what the health shows: the figures when up, {@code error} (the reason) when down
     */
    public record Outcome(boolean up, Map<String, Object> details) {
    }

    /** @param client the application's lock client */
    public DistLockHealthCheck(LockClient client) {
        this.client = client;
    }

    /** @return what Redis and this instance's locks look like now */
    public Outcome check() {
        Outcome outcome = probe();
        Boolean before = lastUp.getAndSet(outcome.up());
        if (outcome.up() && Boolean.FALSE.equals(before)) {
            LOG.log(Level.INFO, "distlock health is UP again: Redis answers");
        } else if (!outcome.up() && !Boolean.FALSE.equals(before)) {
            LOG.log(Level.WARNING, () -> "distlock health is DOWN: " + outcome.details().get("error")
                    + " (logged once until it is UP again)");
        }
        return outcome;
    }

    private Outcome probe() {
        try {
            return new Outcome(true, figures(client.ping().toNanos() / 1_000));
        } catch (RuntimeException e) {
            return new Outcome(false, Map.of("error", reason(e)));
        }
    }

    private Map<String, Object> figures(long pingMicros) {
        List<LockInfo> locks = client.locks();
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("pingMicros", pingMicros);
        details.put("keyPrefix", client.keyPrefix());
        details.put("watchdogLeases", client.watchdogHoldCount());
        details.put("heldLocks", locks.stream().filter(lock -> lock.state() == LockInfo.State.HELD).count());
        details.put("waitingCallers", locks.stream().filter(lock -> lock.state() == LockInfo.State.WAITING).count());
        return details;
    }

    private static String reason(RuntimeException e) {
        String message = e.getMessage();
        return message == null ? e.getClass().getName() : message;
    }
}

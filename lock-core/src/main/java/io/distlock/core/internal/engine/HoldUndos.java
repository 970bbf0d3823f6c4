package io.distlock.core.internal.engine;

import io.lettuce.core.RedisCommandExecutionException;

import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Takes back holds that acquisitions of this client may have taken but nobody will use: an
 * attempt whose answer failed (it may still have run), one that acquired after its caller gave
 * up, or a hand-off whose outcome is unknown. Each undo releases its one hold by the hold's id, so
 * it takes back exactly that hold if Redis has it, does nothing if not, and may be sent any number
 * of times.
 *
 * <p>An undo is sent again, after a pause that grows to {@value #MAX_PAUSE_MILLIS} ms, until Redis
 * answers it or the client closes. The failure that made an attempt's outcome unknown (a broken
 * connection) is the one most likely to fail its undo too: Lettuce fails commands at once while
 * its last reconnect failed. Given up, the hold would keep the lock from everybody for its lease,
 * or for as long as the holder's other holds of the lock keep the lease alive. An error reply is
 * an answer, and ends the undo, unless it is one a moment cures (a loading or failing-over server,
 * a busy script): the hold, if any, then ends with its lease.
 *
 * <p>While an undo is pending, the holder's next acquisition of the lock sends it first, on the
 * same connection, so that acquisition does not join the hold being taken back. An undo has at
 * most one send in flight: one in flight is already ahead of whatever follows it on its connection.
 * At most {@value #MAX_PENDING} undos are retried at once (a caller retrying in a tight loop
 * through a long outage starts one per attempt); beyond that an undo is sent once.
 */
final class HoldUndos {

    private static final System.Logger LOG = System.getLogger(HoldUndos.class.getName());
    private static final long FIRST_PAUSE_MILLIS = 50;
    private static final long MAX_PAUSE_MILLIS = 1_000;
    private static final int MAX_PENDING = 10_000;
    /** Error replies that a moment cures: an undo that gets one is sent again. */
    private static final List<String> PASSING_ERRORS = List.of("LOADING", "BUSY", "TRYAGAIN", "CLUSTERDOWN",
            "MASTERDOWN", "READONLY", "OOM");

    /** Whose undos: one holder's holds of one lock, of whatever kind (the kinds of a name share keys). */
    private record HolderOfLock(String lockKey, String holderId) {
    }

    private final ClientLifecycle lifecycle;
    private final ScheduledExecutorService scheduler;
    private final ConcurrentHashMap<HolderOfLock, Set<Undo>> pending = new ConcurrentHashMap<>();
    private final AtomicInteger pendingCount = new AtomicInteger();
    /** Whether going past {@link #MAX_PENDING} was reported since nothing was pending. */
    private final AtomicBoolean overflowReported = new AtomicBoolean();

    /**
     * @param lifecycle the client's: its closing ends the retries
     * @param scheduler the client's: paces the retries
     */
    HoldUndos(ClientLifecycle lifecycle, ScheduledExecutorService scheduler) {
        this.lifecycle = lifecycle;
        this.scheduler = scheduler;
    }

    /**
     * Starts taking a hold back; returns at once.
     *
     * @param protocol the kind of lock the hold is of
     * @param keys     the lock's keys
     * @param holderId who may hold it
     * @param holdId   the hold to take back
     */
    void start(LockProtocol protocol, LockKeys keys, String holderId, String holdId) {
        if (pendingCount.incrementAndGet() > MAX_PENDING) {
            pendingCount.decrementAndGet();
            if (overflowReported.compareAndSet(false, true)) {
                LOG.log(Level.WARNING, () -> MAX_PENDING + " undos of failed lock attempts are pending (Redis is "
                        + "unreachable?); further ones are sent once, and a hold one of them misses ends with its lease");
            }
            release(protocol, keys, holderId, holdId);
            return;
        }
        Undo undo = new Undo(protocol, keys, new HolderOfLock(keys.lockKey(), holderId), holdId);
        pending.compute(undo.owner, (owner, undos) -> {
            Set<Undo> joined = undos != null ? undos : ConcurrentHashMap.newKeySet();
            joined.add(undo);
            return joined;
        });
        undo.send();
    }

    /**
     * Sends the holder's pending undos of this lock now, unless already on their way, so they reach
     * Redis before what the caller sends next on the same connection (the holder's next attempt).
     *
     * @param keys     the lock's keys
     * @param holderId the holder about to acquire
     */
    void sendFirst(LockKeys keys, String holderId) {
        if (pending.isEmpty()) {
            return;  // the usual case, on every acquisition: no key to build, no hash to compute
        }
        Set<Undo> undos = pending.get(new HolderOfLock(keys.lockKey(), holderId));
        if (undos != null) {
            undos.forEach(Undo::send);
        }
    }

    private static CompletableFuture<ReleaseReply> release(LockProtocol protocol, LockKeys keys, String holderId,
                                                           String holdId) {
        try {
            return protocol.releaseInOrder(keys, holderId, holdId);  // before the holder's next attempt
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** @return whether sending again may succeed: no answer came, or one a moment cures */
    private static boolean worthRetrying(Throwable error) {
        Throwable e = RedisFailures.unwrap(error);
        if (!(e instanceof RedisCommandExecutionException)) {
            return true;
        }
        String reply = String.valueOf(e.getMessage());
        return PASSING_ERRORS.stream().anyMatch(reply::startsWith);
    }

    /** One hold to take back, and its retries. */
    private final class Undo {

        private final LockProtocol protocol;
        private final LockKeys keys;
        private final HolderOfLock owner;
        private final String holdId;
        private final AtomicBoolean done = new AtomicBoolean();
        private final AtomicBoolean inFlight = new AtomicBoolean();
        private final AtomicBoolean retryScheduled = new AtomicBoolean();
        /** The pause before the next retry; touched only by whoever sets {@link #retryScheduled}. */
        private long pauseMillis = FIRST_PAUSE_MILLIS;

        Undo(LockProtocol protocol, LockKeys keys, HolderOfLock owner, String holdId) {
            this.protocol = protocol;
            this.keys = keys;
            this.owner = owner;
            this.holdId = holdId;
        }

        /** Sends the undo, unless it is done or a send of it is on its way. */
        void send() {
            if (done.get() || !inFlight.compareAndSet(false, true)) {
                return;
            }
            if (lifecycle.isClosed()) {
                end();
                return;
            }
            release(protocol, keys, owner.holderId(), holdId).whenComplete((reply, error) -> {
                inFlight.set(false);  // a send from now on goes behind this one: it may be needed
                if (error == null) {
                    end();
                } else if (!worthRetrying(error) || lifecycle.isClosed()) {
                    if (!lifecycle.isClosed()) {
                        LOG.log(Level.WARNING, () -> "Redis refused to take back hold " + holdId + " of "
                                + keys.lockKey() + " (" + RedisFailures.unwrap(error) + "); if it has the hold, the "
                                + "hold ends with its lease");
                    }
                    end();
                } else {
                    retryLater(error);
                }
            });
        }

        /** Schedules the next send, unless one is scheduled; a send still in flight retries by itself. */
        private void retryLater(Throwable error) {
            if (!retryScheduled.compareAndSet(false, true)) {
                return;
            }
            long pause = pauseMillis;
            pauseMillis = Math.min(pause * 2, MAX_PAUSE_MILLIS);
            LOG.log(Level.DEBUG, () -> "Could not take back hold " + holdId + " of " + keys.lockKey() + " ("
                    + RedisFailures.unwrap(error) + "); trying again in " + pause + " ms");
            try {
                scheduler.schedule(() -> {
                    retryScheduled.set(false);
                    send();
                }, pause, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException closing) {
                end();  // the client is closing: the lease ends the hold
            }
        }

        /** Redis answered, or the client closed: no longer pending. Idempotent. */
        private void end() {
            if (!done.compareAndSet(false, true)) {
                return;
            }
            pending.computeIfPresent(owner, (key, undos) -> {
                undos.remove(this);
                return undos.isEmpty() ? null : undos;
            });
            if (pendingCount.decrementAndGet() == 0) {
                overflowReported.set(false);
            }
        }
    }
}

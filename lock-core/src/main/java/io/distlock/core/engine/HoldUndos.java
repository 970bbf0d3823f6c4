package io.distlock.core.engine;

import java.lang.System.Logger.Level;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
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
 * or for as long as the holder's other holds of the lock keep the lease alive. While an undo is
 * pending, the holder's next acquisition of the lock sends it first, on the same connection, so
 * that acquisition never joins the hold being taken back.
 *
 * <p>At most {@value #MAX_PENDING} undos are retried at once (a caller retrying in a tight loop
 * through a long outage starts one per attempt); beyond that an undo is sent once.
 */
final class HoldUndos {

    private static final System.Logger LOG = System.getLogger(HoldUndos.class.getName());
    private static final long FIRST_PAUSE_MILLIS = 50;
    private static final long MAX_PAUSE_MILLIS = 1_000;
    static final int MAX_PENDING = 10_000;

    /** Whose undos: one holder's holds of one lock of one kind. */
    private record HolderOfLock(String lockKey, String type, String holderId) {
    }

    private final LockEngine engine;
    private final ConcurrentHashMap<HolderOfLock, Set<Undo>> pending = new ConcurrentHashMap<>();
    private final AtomicInteger pendingCount = new AtomicInteger();
    /** Whether the overflow past {@link #MAX_PENDING} was reported since the count was last below it. */
    private final AtomicBoolean overflowReported = new AtomicBoolean();

    /** @param engine the client's engine: its scheduler paces the retries, its closing ends them */
    HoldUndos(LockEngine engine) {
        this.engine = engine;
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
            protocol.release(keys, holderId, holdId);
            return;
        }
        overflowReported.set(false);
        Undo undo = new Undo(protocol, keys, holderId, holdId);
        pending.compute(undo.owner, (owner, undos) -> {
            Set<Undo> joined = undos != null ? undos : ConcurrentHashMap.newKeySet();
            joined.add(undo);
            return joined;
        });
        undo.send(FIRST_PAUSE_MILLIS);
    }

    /**
     * Sends the holder's pending undos of this lock now, so they reach Redis before what the
     * caller sends next on the same connection (the holder's next attempt).
     *
     * @param keys     the lock's keys
     * @param protocol the kind of lock
     * @param holderId the holder about to acquire
     */
    void sendFirst(LockKeys keys, LockProtocol protocol, String holderId) {
        Set<Undo> undos = pending.get(new HolderOfLock(keys.lockKey(), protocol.type(), holderId));
        if (undos != null) {
            undos.forEach(Undo::sendOnce);
        }
    }

    /** @return undos being retried now (for tests and diagnostics) */
    int pending() {
        return pendingCount.get();
    }

    /** One hold to take back, and its retries. */
    private final class Undo {

        private final LockProtocol protocol;
        private final LockKeys keys;
        private final String holdId;
        private final HolderOfLock owner;
        private final AtomicBoolean done = new AtomicBoolean();

        Undo(LockProtocol protocol, LockKeys keys, String holderId, String holdId) {
            this.protocol = protocol;
            this.keys = keys;
            this.holdId = holdId;
            this.owner = new HolderOfLock(keys.lockKey(), protocol.type(), holderId);
        }

        /** @param pauseMillis the pause before sending again if this send fails */
        void send(long pauseMillis) {
            if (done.get()) {
                return;
            }
            if (engine.isClosed()) {
                end();
                return;
            }
            protocol.release(keys, owner.holderId(), holdId).whenComplete((left, error) -> {
                if (error == null) {
                    end();
                } else {
                    sendAgainAfter(pauseMillis, error);
                }
            });
        }

        /** Sends once more besides the retries; only an answer counts (a failure leaves them going). */
        void sendOnce() {
            protocol.release(keys, owner.holderId(), holdId).whenComplete((left, error) -> {
                if (error == null) {
                    end();
                }
            });
        }

        private void sendAgainAfter(long pauseMillis, Throwable error) {
            if (done.get()) {
                return;
            }
            LOG.log(Level.DEBUG, () -> "Could not take back hold " + holdId + " of " + keys.lockKey() + " ("
                    + RedisFailures.unwrap(error) + "); trying again in " + pauseMillis + " ms");
            try {
                engine.scheduler().schedule(() -> send(Math.min(pauseMillis * 2, MAX_PAUSE_MILLIS)), pauseMillis,
                        TimeUnit.MILLISECONDS);
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
            pendingCount.decrementAndGet();
        }
    }
}

package io.distlock.core.engine;

import java.lang.System.Logger.Level;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Takes back a hold that an acquisition may have taken but nobody will use: an attempt whose
 * answer failed (it may still have run), one that acquired after its caller gave up, or a hand-off
 * whose outcome is unknown. The release names that one hold by its id, so it takes back exactly
 * that hold if Redis has it, does nothing if not, and may be sent any number of times.
 *
 * <p>It is sent again, after a pause that grows, until Redis answers it: a failed undo would
 * otherwise keep the lock from everybody for the hold's whole lease, and the failure that made the
 * attempt's outcome unknown (a broken connection) is the one most likely to fail the undo too
 * (Lettuce fails commands at once while its last reconnect failed). It stops once the hold, if it
 * exists, has surely ended with its lease, or when the client closes (then too the lease ends it).
 */
final class HoldUndo {

    private static final System.Logger LOG = System.getLogger(HoldUndo.class.getName());
    private static final long FIRST_PAUSE_MILLIS = 50;
    private static final long MAX_PAUSE_MILLIS = 1_000;

    private final LockEngine engine;
    private final LockProtocol protocol;
    private final LockKeys keys;
    private final String holderId;
    private final String holdId;
    /** When the hold, if Redis has it, has ended with its lease ({@link System#nanoTime()}). */
    private final long leaseEndNanos;

    private HoldUndo(LockEngine engine, LockProtocol protocol, LockKeys keys, String holderId, String holdId,
                     long leaseMillis) {
        this.engine = engine;
        this.protocol = protocol;
        this.keys = keys;
        this.holderId = holderId;
        this.holdId = holdId;
        this.leaseEndNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(leaseMillis);
    }

    /**
     * Starts taking the hold back; returns at once.
     *
     * @param engine      the client's engine (its scheduler paces the retries)
     * @param protocol    the kind of lock the hold is of
     * @param keys        the lock's keys
     * @param holderId    who may hold it
     * @param holdId      the hold to take back
     * @param leaseMillis the lease the hold was asked for: counted from now, it has ended by then
     */
    static void start(LockEngine engine, LockProtocol protocol, LockKeys keys, String holderId, String holdId,
                      long leaseMillis) {
        new HoldUndo(engine, protocol, keys, holderId, holdId, leaseMillis).send(FIRST_PAUSE_MILLIS);
    }

    /** @param pauseMillis the pause before sending again if this send fails */
    private void send(long pauseMillis) {
        if (engine.isClosed()) {
            return;
        }
        CompletableFuture<Long> released;
        try {
            released = protocol.release(keys, holderId, holdId);
        } catch (RuntimeException closed) {
            return;  // the connection is closed: the lease ends the hold
        }
        released.whenComplete((left, error) -> {
            if (error != null) {
                sendAgainAfter(pauseMillis, error);
            }
        });
    }

    private void sendAgainAfter(long pauseMillis, Throwable error) {
        if (engine.isClosed()) {
            return;
        }
        if (System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(pauseMillis) - leaseEndNanos >= 0) {
            LOG.log(Level.WARNING, () -> "Could not take back a hold of lock " + keys.lockKey()
                    + " that an acquisition may have taken (" + RedisFailures.unwrap(error)
                    + "); if Redis has it, it ends with its lease");
            return;
        }
        try {
            engine.scheduler().schedule(() -> send(Math.min(pauseMillis * 2, MAX_PAUSE_MILLIS)), pauseMillis,
                    TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closing) {
            // the client is closing: the lease ends the hold
        }
    }
}

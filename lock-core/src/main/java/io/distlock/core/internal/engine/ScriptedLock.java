package io.distlock.core.internal.engine;

import io.distlock.core.LockException;
import io.distlock.core.RedisLock;
import io.distlock.core.internal.pubsub.WakeUpChannel;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A {@link RedisLock} whose Redis side is a {@link LockProtocol}: all the {@code Lock} semantics
 * (thread holders, blocking and async acquisition, leases, retry-safe release, lost leases) in one
 * place for every kind of lock.
 */
public class ScriptedLock implements RedisLock, SettableLease, RetrySafeRelease {

    /**
     * Most hand-offs between holders of one client in a row before a release goes through Redis
     * (and its channel) and yields the lock to waiters of other clients, so waiters in other JVMs
     * are not starved by a busy JVM.
     */
    static final int MAX_HAND_OFFS_IN_A_ROW = 16;

    /**
     * How long a lock yielded to the other clients stays free for them only: long enough for a
     * woken waiter of another JVM to ask for it (a pub/sub message and one round trip), short
     * enough that a waiter that died or stalled holds nobody up for long.
     */
    static final long YIELD_MILLIS = 50;

    private final LockEngine engine;
    private final LockId id;
    private final String name;
    private final LockKeys keys;
    private final LockProtocol protocol;

    /**
     * @param engine   the client's engine
     * @param id       lock name (already checked) and group
     * @param protocol the kind of lock
     */
    public ScriptedLock(LockEngine engine, LockId id, LockProtocol protocol) {
        this.engine = engine;
        this.id = id;
        this.name = id.name();
        this.keys = engine.keys(name);
        this.protocol = protocol;
    }

    @Override
    public String getName() {
        return name;
    }

    /** @return the lock's Redis keys */
    public LockKeys keys() {
        return keys;
    }

    /** @return the client's engine */
    protected LockEngine engine() {
        return engine;
    }

    /** @return the kind of lock */
    protected LockProtocol protocol() {
        return protocol;
    }

    @Override
    public void lock() {
        acquireUninterruptibly(Lease.watchdog());
    }

    @Override
    public void lock(long leaseTime, TimeUnit unit) {
        acquireUninterruptibly(Lease.of(leaseTime, unit));
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        acquire(Blocking.NO_LIMIT, Lease.watchdog(), true);
    }

    @Override
    public boolean tryLock() {
        try {
            return acquire(0, Lease.watchdog(), false) != null;
        } catch (InterruptedException e) {
            throw new IllegalStateException("an uninterruptible wait was interrupted", e);
        }
    }

    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        return acquire(Math.max(0, toMillis(time, unit)), Lease.watchdog(), true) != null;
    }

    @Override
    public boolean tryLock(long waitTime, long leaseTime, TimeUnit unit) throws InterruptedException {
        return acquire(Math.max(0, toMillis(waitTime, unit)), Lease.of(leaseTime, unit), true) != null;
    }

    @Override
    public void unlock() {
        // No limit of its own: the release bounds each of its Redis calls and decides by itself
        // whether an answer came in time (inTime), so what the caller is told and the holder's
        // books never part.
        Blocking.awaitUninterruptibly(release(currentHolder()), Blocking.NO_LIMIT, "release lock '" + name + "'");
    }

    @Override
    public CompletableFuture<Boolean> tryLockAsync(long waitTime, long leaseTime, TimeUnit unit, String holderId) {
        checkHolder(holderId);
        Acquisition acquisition = startAcquisition(holderId, false, Math.max(0, toMillis(waitTime, unit)),
                Lease.of(leaseTime, unit));
        CompletableFuture<Boolean> acquired = engine.forCaller(acquisition.outcome().thenApply(Objects::nonNull));
        acquired.whenComplete((ok, error) -> {
            if (!Boolean.TRUE.equals(ok)) {
                // Not acquired, or the caller ended the future (cancel, orTimeout, complete):
                // nobody will use or release a hold that arrives after this.
                giveUp(acquisition);
            }
        });
        return acquired;
    }

    @Override
    public CompletableFuture<Void> unlockAsync(String holderId) {
        checkHolder(holderId);
        return engine.forCaller(release(holderId));
    }

    @Override
    public CompletableFuture<Void> unlockKeepingAsync(String holderId, Duration keep) {
        checkHolder(holderId);
        Objects.requireNonNull(keep, "keep must not be null");
        if (keep.isNegative() || keep.isZero()) {
            throw new IllegalArgumentException("keep must be positive, was " + keep);
        }
        if (!protocol.canKeep()) {
            return CompletableFuture.failedFuture(new UnsupportedOperationException("Lock '" + name + "' is a "
                    + protocol.type() + " lock, which cannot be kept taken after its release; reentrant and fenced "
                    + "locks can"));
        }
        return engine.forCaller(release(holderId, null, keep.toMillis()));
    }

    @Override
    public CompletableFuture<Void> leaseFromNow(String holderId, Lease lease, long acquiringSinceNanos) {
        checkHolder(holderId);
        return engine.forCaller(engine.events().afterDelivery(startLeaseFromNow(holderId, lease,
                acquiringSinceNanos)));
    }

    /** {@link #leaseFromNow(String, Lease, long)} without waiting for the delivery of its events. */
    private CompletableFuture<Void> startLeaseFromNow(String holderId, Lease lease, long acquiringSinceNanos) {
        engine.ensureOpen();
        Hold hold = engine.holds().hold(keys, protocol, holderId);
        String holdId = hold == null ? null : hold.latestHoldId();
        if (hold == null || holdId == null) {
            return CompletableFuture.failedFuture(new IllegalMonitorStateException(
                    "Lock '" + name + "' is not held by " + describe(holderId)));
        }
        if (hold.lost()) {
            return CompletableFuture.failedFuture(engine.holds().lostBeforeLease(hold));
        }
        long leaseMillis;
        boolean exact;
        if (!lease.isWatchdog()) {
            leaseMillis = lease.millis();
            exact = engine.holds().leaseFromNow(hold, leaseMillis, acquiringSinceNanos);
        } else if (engine.leaseCannotHaveEndedSince(acquiringSinceNanos)) {
            return CompletableFuture.completedFuture(null);
        } else {
            leaseMillis = engine.watchdogLeaseMillis();  // stays a watchdog hold: renewed from now, if still there
            exact = false;
        }
        return inTime(protocol.setLease(keys, new HoldRef(holderId, holdId), leaseMillis, exact))
                .handle((stillHeld, error) -> {
                    if (error != null) {
                        throw RedisFailures.translate("set the lease of lock '" + name + "'", error);
                    }
                    if (!stillHeld) {
                        throw engine.holds().lostBeforeLease(hold);
                    }
                    return null;
                });
    }

    @Override
    public CompletableFuture<Void> leaseFromNow(Lease lease, long acquiringSinceNanos) {
        return leaseFromNow(currentHolder(), lease, acquiringSinceNanos);
    }

    @Override
    public boolean isLocked() {
        return sync("check lock", () -> engine.commands().exists(keys.lockKey())) > 0;
    }

    @Override
    public boolean isHeldByCurrentThread() {
        return isHeldBy(currentHolder());
    }

    @Override
    public boolean isHeldBy(String holderId) {
        checkHolder(holderId);
        return sync("check lock", () -> engine.commands().hexists(keys.lockKey(), protocol.holderField(holderId)));
    }

    @Override
    public int getHoldCount() {
        String count = sync("check lock",
                () -> engine.commands().hget(keys.lockKey(), protocol.holderField(currentHolder())));
        return count == null ? 0 : Integer.parseInt(count);
    }

    @Override
    public long remainingTimeToLive() {
        return sync("read the lease", () -> engine.commands().pttl(keys.lockKey()));
    }

    @Override
    public boolean forceUnlock() {
        String callId = engine.newId();
        return sync("force-unlock", () -> protocol.forceUnlock(keys, callId)) == 1L;
    }

    /**
     * Acquires for the calling thread.
     *
     * @param waitMillis    {@code 0} tries once, {@link Blocking#NO_LIMIT} waits without limit
     * @param lease         the lease asked for
     * @param interruptible whether an interrupt ends the wait
     * @return the hold, or {@code null} if the wait time elapsed
     * @throws InterruptedException if interruptible and interrupted; nothing is held then
     */
    protected @Nullable Hold acquire(long waitMillis, Lease lease, boolean interruptible)
            throws InterruptedException {
        if (interruptible && Thread.interrupted()) {
            throw new InterruptedException("interrupted before acquiring lock '" + name + "'");
        }
        Acquisition acquisition = startAcquisition(currentHolder(), true, waitMillis, lease);
        long limit = waitMillis == Blocking.NO_LIMIT || waitMillis > Long.MAX_VALUE / 2 ? Blocking.NO_LIMIT
                : waitMillis + 2 * commandLimit();
        String action = "acquire lock '" + name + "'";
        boolean done = false;
        try {
            Hold hold = interruptible
                    ? Blocking.await(acquisition.outcome(), limit, action)
                    : Blocking.awaitUninterruptibly(acquisition.outcome(), limit, action);
            done = true;
            return hold;
        } finally {
            if (!done) {
                giveUp(acquisition);
            }
        }
    }

    private void acquireUninterruptibly(Lease lease) {
        try {
            acquire(Blocking.NO_LIMIT, lease, false);
        } catch (InterruptedException e) {
            throw new IllegalStateException("an uninterruptible wait was interrupted", e);
        }
    }

    /**
     * The caller stops waiting: abandon, or if the lock was acquired meanwhile, give back exactly
     * the hold this acquisition took (never another hold of the same holder).
     */
    private void giveUp(Acquisition acquisition) {
        if (!acquisition.abandon()) {
            acquisition.outcome().thenAccept(hold -> {
                if (hold != null) {
                    release(hold.holderId(), acquisition.holdId());
                }
            });
        }
    }

    /**
     * Releases the holder's latest hold; retry-safe: a release Redis did not confirm is sent
     * again first (see {@code unlock.lua}). The last hold goes straight to a sleeping waiter of
     * this client for the same kind of lock if there is one ({@code hand_off.lua}), at most
     * {@link #MAX_HAND_OFFS_IN_A_ROW} times in a row. The release after that goes through Redis and
     * yields the lock to waiters of other clients, if any listen, for {@link #YIELD_MILLIS} at
     * most, so waiters in other JVMs get their turn: without the yield this client's own threads,
     * one round trip away, would take it back before a waiter woken by the release message could.
     *
     * @param holderId the holder
     * @return completes when Redis confirmed the release
     */
    protected CompletableFuture<Void> release(String holderId) {
        return release(holderId, null);
    }

    /**
     * @param holdId the hold to release, or {@code null} for the holder's latest
     * @see #release(String)
     */
    private CompletableFuture<Void> release(String holderId, @Nullable String holdId) {
        return release(holderId, holdId, 0);
    }

    /**
     * Starts an acquisition for the holder. Releases of the holder that Redis never confirmed, and
     * undos of its earlier attempts still pending, are sent again first, on the same connection,
     * so they run before the attempt: those holds were given up, and an acquisition must not join
     * them (its one {@code unlock()} would then leave a hold behind, one the watchdog renews for
     * ever if it keeps this one's lease). One round trip still: the attempt does not wait for them.
     *
     * @param thread whether the holder is the calling thread, whose acquisitions never overlap (see
     *               {@link Acquisition#start})
     */
    private Acquisition startAcquisition(String holderId, boolean thread, long waitMillis, Lease lease) {
        Hold hold = engine.holds().hold(keys, protocol, holderId);
        if (hold != null) {
            // Each reports its outcome by events; one that fails again stays unconfirmed.
            hold.unconfirmedHoldIds().forEach(holdId -> startRelease(holderId, holdId, 0));
        }
        engine.undos().sendFirst(keys, holderId);
        return Acquisition.start(engine, id, keys, protocol, holderId, thread, waitMillis, lease);
    }

    /**
     * @param keepMillis &gt; 0: a last hold leaves the lock taken, by nobody, that long (see
     *                   {@link #unlockKeepingAsync}); 0: a plain release
     * @see #release(String)
     */
    private CompletableFuture<Void> release(String holderId, @Nullable String holdId, long keepMillis) {
        return engine.events().afterDelivery(startRelease(holderId, holdId, keepMillis));
    }

    /** {@link #release(String, String, long)} without waiting for the delivery of its events. */
    private CompletableFuture<Void> startRelease(String holderId, @Nullable String holdId, long keepMillis) {
        engine.ensureOpen();
        Hold hold = engine.holds().hold(keys, protocol, holderId);
        Hold.Release taken = hold == null ? null : hold.takeForRelease(holdId);
        if (hold == null || taken == null) {
            // After the holds since, those a new acquisition ended when their lease ran out.
            CompletableFuture<Void> ended = holdId == null ? engine.holds().unlockEnded(keys, protocol, holderId) : null;
            if (ended != null) {
                return ended;
            }
            return CompletableFuture.failedFuture(new IllegalMonitorStateException(
                    "Lock '" + name + "' is not held by " + describe(holderId)));
        }
        if (hold.lost()) {
            return CompletableFuture.failedFuture(engine.holds().releasedLost(hold));
        }
        Acquisition next = null;
        if (taken.last()) {
            // A retried release may have freed the lock already: nothing to hand over then.
            next = keepMillis > 0 || taken.retry() ? null : claimSleepingWaiter(hold);
            engine.holds().releasing(hold, next != null);
        }
        CompletableFuture<Released> remaining;
        if (keepMillis > 0) {
            remaining = released(hold.protocol().releaseKeeping(keys, holderId, taken.holdId(), keepMillis));
        } else if (next != null) {
            remaining = handOff(hold, taken.holdId(), next);
        } else if (taken.retry() || holdId != null) {
            // Sent again (its first send may still be on its way), or a hold an acquisition took
            // after its caller gave up: the holder's next attempt goes behind it.
            remaining = released(hold.protocol().releaseInOrder(keys, holderId, taken.holdId()));
        } else if (taken.last() && handOffsUsedUp(hold)) {
            remaining = released(hold.protocol().releaseYielding(keys, holderId, taken.holdId(), YIELD_MILLIS,
                    engine.listensOn(keys.channel())));
        } else {
            remaining = released(hold.protocol().release(keys, holderId, taken.holdId()));
        }
        Acquisition receiver = next;
        return remaining.handle((released, error) -> {
            if (error != null) {
                hold.releaseUnconfirmed(taken.holdId());
                throw new LockException("Redis did not confirm the release of lock '" + name
                        + "'; it may or may not be released. Calling unlock again is safe.",
                        RedisFailures.translate("release lock '" + name + "'", error));
            }
            // Decided: no run of this release is read again, so Redis may forget its answer.
            engine.releaseAnswers().read(keys, taken.holdId());
            if (!lostBefore(released.reply(), taken)) {
                engine.holds().released(hold);
                if (receiver != null && released.handedOver()) {
                    receiver.handedOff(hold.handOffs() + 1);
                }
                return null;
            }
            throw engine.holds().releasedLost(hold);
        });
    }

    /**
     * Whether the release found the lease lost before the caller released it. Redis remembers
     * every answer of a release ({@link LockProtocol#answerKeptMillis()}), so a run of it that
     * Lettuce or this engine sent again answers as the first run did: "nothing held" when that
     * run found nothing is a loss. A release this engine sent again whose earlier sends never ran
     * (none is remembered) and that now finds nothing held cannot tell: the hold ended either
     * before the caller released it, or after, when its lease ran out while the release went
     * unconfirmed (the watchdog no longer renews a hold being released). Taken as released: the
     * caller had left its critical section when it first called {@code unlock()}.
     *
     * @param reply what this run of the release answered
     * @param taken the release
     * @return whether to report the lease lost
     */
    private static boolean lostBefore(ReleaseReply reply, Hold.Release taken) {
        return reply.outcome() == ReleaseReply.Outcome.NOT_HELD_BEFORE
                || (reply.outcome() == ReleaseReply.Outcome.NOT_HELD && !taken.retry());
    }

    /**
     * What a release call answered.
     *
     * @param reply      what the release found; a hand-off that happened counts as released
     * @param handedOver whether hand_off.lua moved the lock to the claimed local waiter; only then
     *                   does that waiter hold it (a release that freed the lock after a refused
     *                   hand-off leaves it to the waiter's own attempts)
     */
    private record Released(ReleaseReply reply, boolean handedOver) {

        static final Released HANDED_OVER = new Released(
                new ReleaseReply(ReleaseReply.Outcome.RELEASED, 0), true);
    }

    /** @return what a release script call answered, within the command limit ({@link #inTime}) */
    private CompletableFuture<Released> released(CompletableFuture<ReleaseReply> release) {
        return inTime(release).thenApply(reply -> new Released(reply, false));
    }

    /**
     * A Redis call of a release (or of a lease change), failed if it has no answer within the
     * command limit ({@link ReplyDeadlines}). This is the one place that decides the answer of a
     * release did not come: the release then stays in the holder's books
     * as unconfirmed ({@link Hold#releaseUnconfirmed}), and the next {@code unlock()} sends it
     * again, answered as its first run was. A caller that stopped waiting by a clock of its own
     * would be told the same, while the release was still in flight and taken out of the books:
     * its retry would be refused as not held, and the release would go on and end the hold. A JVM
     * frozen past the limit (a stop-the-world pause, a suspended VM) wakes with every deadline
     * passed, the waiting caller's first, before its event loop reads the answer that came
     * meanwhile; so does a Lettuce client whose own timeout is longer than the command limit.
     */
    private <T> CompletableFuture<T> inTime(CompletableFuture<T> call) {
        return engine.replyDeadlines().within(call, commandLimit());
    }

    /** @return a sleeping waiter of this client for the same kind of lock, claimed for a hand-off */
    private @Nullable Acquisition claimSleepingWaiter(Hold hold) {
        if (!hold.protocol().canHandOff() || handOffsUsedUp(hold)) {
            return null;
        }
        WakeUpChannel<Acquisition> sleepers = engine.subscriptions().find(keys.channel());
        return sleepers == null ? null : sleepers.claimFirst(waiter -> waiter.protocol() == hold.protocol());
    }

    /**
     * @return whether the lock came to this hold through as many local hand-offs in a row as
     *         allowed: its release goes through Redis and yields the lock to the other clients
     */
    private static boolean handOffsUsedUp(Hold hold) {
        return hold.protocol().canHandOff() && hold.handOffs() >= MAX_HAND_OFFS_IN_A_ROW;
    }

    /**
     * Hands the last hold to a claimed sleeper.
     *
     * @return handed over; or, when Redis did not hand it over, what the ordinary release of the
     *         hold answered instead (the sleeper then goes back to its own attempts)
     */
    private CompletableFuture<Released> handOff(Hold hold, String holdId, Acquisition next) {
        return inTime(hold.protocol().handOff(keys, new HoldRef(hold.holderId(), holdId),
                        new HoldRef(next.holderId(), next.holdId()), next.leaseMillis()))
                .handle((result, error) -> {
                    if (result != null && (result == LockProtocol.HANDED_OVER
                            || result == LockProtocol.HANDED_OVER_BEFORE)) {
                        return CompletableFuture.completedFuture(Released.HANDED_OVER);
                    }
                    // No hand-off (or none known to have happened): the release is a plain one
                    // from here on, and new local waiters ask Redis instead of waiting for it.
                    engine.holds().releasing(hold, false);
                    if (error != null) {
                        next.handOffFailed(error);
                        return CompletableFuture.<Released>failedFuture(error);
                    }
                    CompletableFuture<Released> released = result == LockProtocol.NOT_HANDED_OVER
                            // Redis counts more holds than we do: release ours the ordinary way,
                            // before the waiter's own attempt, which may then find the lock free.
                            ? released(hold.protocol().releaseInOrder(keys, hold.holderId(), holdId))
                            : CompletableFuture.completedFuture(new Released(result == LockProtocol.RELEASED_BEFORE
                                    ? new ReleaseReply(ReleaseReply.Outcome.RELEASED_BEFORE, 0)
                                    : new ReleaseReply(ReleaseReply.Outcome.NOT_HELD, 0), false));
                    next.handOffFailed(null);
                    return released;
                })
                .thenCompose(future -> future);
    }

    private String describe(String holderId) {
        return holderId.equals(currentHolder()) ? "the current thread (holder " + holderId + ")"
                : "holder '" + holderId + "'";
    }

    /** @return the holder id of the calling thread in this client */
    protected String currentHolder() {
        return threadHolderId(engine);
    }

    /**
     * @param engine a client's engine
     * @return the holder id of the calling thread in that client
     */
    public static String threadHolderId(LockEngine engine) {
        return engine.clientId() + ":" + Thread.currentThread().getId();
    }

    private <T> T sync(String action, Supplier<CompletionStage<T>> command) {
        engine.ensureOpen();
        String what = action + " of '" + name + "'";
        CompletableFuture<T> answer;
        try {
            answer = command.get().toCompletableFuture();
        } catch (RuntimeException e) {
            throw RedisFailures.translate(what, e);
        }
        return Blocking.awaitUninterruptibly(answer, commandLimit(), what);
    }

    private long commandLimit() {
        return engine.commandTimeoutMillis() + 1000;
    }

    private static long toMillis(long time, TimeUnit unit) {
        Objects.requireNonNull(unit, "unit must not be null");
        return unit.toMillis(time);
    }

    private static void checkHolder(String holderId) {
        Objects.requireNonNull(holderId, "holderId must not be null");
        if (holderId.isBlank()) {
            throw new IllegalArgumentException("holderId must not be blank");
        }
        if (holderId.startsWith("#")) {
            // Fields starting with '#' are the lock hash's own: hold markers, '#yield', '#kept'.
            throw new IllegalArgumentException("holderId must not start with '#', but was '" + holderId + "'");
        }
    }

    @Override
    public String toString() {
        return protocol.type() + " lock '" + name + "'";
    }
}

package io.distlock.core.internal.engine;

import io.distlock.core.LockException;
import io.distlock.core.internal.pubsub.LockSubscriptions;
import io.distlock.core.internal.scripts.ScriptExecutor;
import io.distlock.core.internal.scripts.Scripts;
import io.lettuce.core.ScriptOutputType;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A semaphore in Redis, as a kind of lock whose every hold is one permit: a hash with the permit
 * count, the permits in use, each holder's permits and a marker per permit, and a sorted set
 * giving each holder's lease end by the server's clock (all of a holder's permits share it; the
 * read-write lock's readers have the same, see {@link OwnLeases}). A holder that takes one more
 * permit re-enters, but needs a free permit like anyone else. See {@code sem_acquire.lua},
 * {@code sem_release.lua}, {@code sem_lease.lua}, {@code sem_permits.lua} and {@code rw_renew.lua}. One instance per permit count, so the watchdog batches the holds
 * of every semaphore with that count together.
 */
public final class SemaphoreProtocol implements LockProtocol {

    /** Suffix of the holders' leases sorted set. */
    static final String LEASES = "leases";

    private final ScriptExecutor scripts;
    private final int permits;
    private final ReleaseAnswers answers;
    private final OwnLeases holders;

    /**
     * @param scripts runs the semaphore scripts
     * @param permits the permit count, &gt; 0
     * @param answers where releases keep their answers, and which this client has read
     */
    public SemaphoreProtocol(ScriptExecutor scripts, int permits, ReleaseAnswers answers) {
        this.scripts = scripts;
        this.permits = permits;
        this.answers = answers;
        this.holders = new OwnLeases(scripts, LEASES);
    }

    @Override
    public String type() {
        return "semaphore";
    }

    /** @return the permit count this client expects of the semaphores it reaches through this */
    int permits() {
        return permits;
    }

    @Override
    public CompletableFuture<Attempt> tryAcquire(LockKeys keys, String holderId, long leaseMillis, String holdId,
                                                 boolean reentry) {
        CompletableFuture<List<Long>> reply = scripts.run(Scripts.SEM_ACQUIRE, ScriptOutputType.MULTI,
                new String[] {keys.lockKey(), keys.derived(LEASES)}, Long.toString(leaseMillis), holderId, holdId,
                reentry ? "1" : "0", Integer.toString(permits));
        return reply.thenCompose(r -> r.get(0) == -3L
                ? CompletableFuture.failedFuture(countDisagrees(keys, r.get(1)))
                : CompletableFuture.completedFuture(Attempt.of(r)));
    }

    private LockException countDisagrees(LockKeys keys, long stored) {
        return new LockException("Semaphore '" + keys.lockKey() + "' has " + stored + " permits in Redis, but this "
                + "client asked for it with " + permits + ". Every client must use the same permit count; to change it, "
                + "call RedisSemaphore.setPermits(" + permits + ") once (or let every permit be released first).");
    }

    /** @return {@code true}: a holder's every permit is one fewer for the others */
    @Override
    public boolean reentryTakesFromOthers() {
        return true;
    }

    @Override
    public CompletableFuture<ReleaseReply> release(LockKeys keys, String holderId, String holdId) {
        return release(false, keys, holderId, holdId);
    }

    @Override
    public CompletableFuture<ReleaseReply> releaseInOrder(LockKeys keys, String holderId, String holdId) {
        return release(true, keys, holderId, holdId);
    }

    /** @param inOrder whether it must run before what is sent after it ({@link #releaseInOrder}) */
    private CompletableFuture<ReleaseReply> release(boolean inOrder, LockKeys keys, String holderId, String holdId) {
        String[] releaseKeys = {keys.lockKey(), keys.derived(LEASES), keys.channel(), keys.answerBook(),
                keys.previousAnswerBook()};
        CompletableFuture<List<Long>> reply = scripts.run(inOrder, Scripts.SEM_RELEASE, ScriptOutputType.MULTI,
                releaseKeys, holderId, holdId, LockSubscriptions.WAKE_ONE, scripts.publishCommand(),
                Long.toString(answers.keptMillis()), answers.takeRead(keys));
        return reply.thenApply(ReleaseReply::of);
    }

    @Override
    public long answerKeptMillis() {
        return answers.keptMillis();
    }

    @Override
    public CompletableFuture<Boolean> setLease(LockKeys keys, HoldRef hold, long leaseMillis, boolean exact) {
        return scripts.run(Scripts.SEM_LEASE, ScriptOutputType.BOOLEAN,
                new String[] {keys.lockKey(), keys.derived(LEASES), keys.channel()}, Long.toString(leaseMillis),
                hold.holderId(), hold.holdId(), exact ? "1" : "0", LockSubscriptions.WAKE_ALL, scripts.publishCommand());
    }

    @Override
    public CompletableFuture<Long> forceUnlock(LockKeys keys, String callId) {
        return holders.forceUnlock(keys, callId);
    }

    @Override
    public CompletableFuture<List<Long>> renew(List<Hold> holds, List<String> holdIds, long leaseMillis) {
        return holders.renew(holds, holdIds, leaseMillis, SemaphoreProtocol::marker);
    }

    @Override
    public CompletableFuture<Long> leaseLeft(LockKeys keys, HoldRef hold) {
        return holders.leaseLeft(keys, hold, marker(hold.holderId()));
    }

    /** @return what the markers of a holder's permits hold (see {@code sem_acquire.lua}) */
    private static String marker(String holderId) {
        return "r:" + holderId;
    }

    /**
     * Reads the semaphore's permits, and changes its permit count if asked ({@code sem_permits.lua}).
     *
     * @param keys       the semaphore's keys
     * @param newPermits the new count, or {@code 0} to only read
     * @return {permit count stored before (0: none, no permit is held), permits held}
     */
    CompletableFuture<List<Long>> permits(LockKeys keys, int newPermits) {
        return scripts.run(Scripts.SEM_PERMITS, ScriptOutputType.MULTI,
                new String[] {keys.lockKey(), keys.derived(LEASES), keys.channel()},
                newPermits == 0 ? "" : Integer.toString(newPermits), LockSubscriptions.WAKE_ALL,
                scripts.publishCommand());
    }
}

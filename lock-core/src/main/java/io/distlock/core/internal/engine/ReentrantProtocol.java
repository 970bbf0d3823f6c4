package io.distlock.core.internal.engine;

import io.distlock.core.internal.pubsub.LockSubscriptions;
import io.distlock.core.internal.scripts.ScriptExecutor;
import io.distlock.core.internal.scripts.Scripts;
import io.lettuce.core.ScriptOutputType;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The reentrant lock in Redis, and its fenced variant: a hash per lock whose field is the holder
 * id and whose value is the hold count; the hash's TTL is the lease. A fenced lock also keeps a
 * counter whose next value every new hold takes as its token, kept in the hash (field
 * {@code #token}) for the hold's re-entries; a hold begun by a lock of another kind takes one at
 * its first fenced re-entry. See {@code lock.lua}, {@code unlock.lua}, {@code hand_off.lua},
 * {@code renew.lua}, {@code lease.lua} and {@code force_unlock.lua}.
 */
public final class ReentrantProtocol implements LockProtocol {

    /** Published on the lock's channel when it becomes free: one waiter may take it. */
    private static final String UNLOCK_MESSAGE = LockSubscriptions.WAKE_ONE;

    /** Suffix of a fenced lock's counter key. */
    static final String FENCE = "fence";

    private final String clientId;
    private final ScriptExecutor scripts;
    private final boolean fenced;
    private final ReleaseAnswers answers;

    /**
     * @param clientId       this client's id, or any shorter tag unique among the clients of one
     *                       Redis: a lock it yielded to the other clients stays taken for its own
     *                       holders until the yield ends ({@link #releaseYielding}), and a lock it
     *                       holds notes it ({@code #client}, see {@code lock.lua})
     * @param scripts        runs the lock scripts
     * @param fenced         whether every new hold takes a fencing token from the lock's counter
     *                       ({@code <lockKey>:fence}); fenced locks are not handed off, so every
     *                       hold goes through the counter
     * @param answers        where releases keep their answers, and which this client has read
     */
    public ReentrantProtocol(String clientId, ScriptExecutor scripts, boolean fenced,
                             ReleaseAnswers answers) {
        this.clientId = clientId;
        this.scripts = scripts;
        this.fenced = fenced;
        this.answers = answers;
    }

    @Override
    public String type() {
        return fenced ? "fenced" : "reentrant";
    }

    @Override
    public CompletableFuture<Attempt> tryAcquire(LockKeys keys, String holderId, long leaseMillis, String holdId,
                                                 boolean reentry) {
        String[] lockKeys = fenced ? new String[] {keys.lockKey(), keys.derived(FENCE)} : new String[] {keys.lockKey()};
        CompletableFuture<List<Long>> reply = scripts.run(Scripts.LOCK, ScriptOutputType.MULTI, lockKeys,
                Long.toString(leaseMillis), holderId, holdId, reentry ? "1" : "0", clientId);
        return reply.thenApply(Attempt::of);
    }

    @Override
    public CompletableFuture<ReleaseReply> release(LockKeys keys, String holderId, String holdId) {
        return unlock(false, keys, holderId, holdId);
    }

    @Override
    public CompletableFuture<ReleaseReply> releaseInOrder(LockKeys keys, String holderId, String holdId) {
        return unlock(true, keys, holderId, holdId);
    }

    @Override
    public long answerKeptMillis() {
        return answers.keptMillis();
    }

    /** @return where releases keep their answers (the fair lock, which shares this hash layout, too) */
    ReleaseAnswers answers() {
        return answers;
    }

    /**
     * Runs unlock.lua; {@code how} are its optional arguments from ARGV[7] on (see there).
     *
     * @param inOrder whether it must run before what is sent after it ({@link #releaseInOrder})
     */
    private CompletableFuture<ReleaseReply> unlock(boolean inOrder, LockKeys keys, String holderId, String holdId,
                                                   String... how) {
        String[] args = new String[6 + how.length];
        args[0] = holderId;
        args[1] = holdId;
        args[2] = UNLOCK_MESSAGE;
        args[3] = scripts.publishCommand();
        args[4] = Long.toString(answers.keptMillis());
        args[5] = answers.takeRead(keys);
        System.arraycopy(how, 0, args, 6, how.length);
        String[] unlockKeys = {keys.lockKey(), keys.channel(), keys.answerBook(), keys.previousAnswerBook()};
        CompletableFuture<List<Long>> reply = scripts.run(inOrder, Scripts.UNLOCK, ScriptOutputType.MULTI, unlockKeys,
                args);
        return reply.thenApply(ReleaseReply::of);
    }

    @Override
    public CompletableFuture<Boolean> setLease(LockKeys keys, HoldRef hold, long leaseMillis, boolean exact) {
        return scripts.run(Scripts.LEASE, ScriptOutputType.BOOLEAN, new String[] {keys.lockKey(), keys.channel()},
                Long.toString(leaseMillis), hold.holdId(), exact ? "1" : "0", UNLOCK_MESSAGE, scripts.publishCommand(),
                hold.holderId());
    }

    @Override
    public CompletableFuture<Long> leaseLeft(LockKeys keys, HoldRef hold) {
        return scripts.run(Scripts.LEASE_LEFT, ScriptOutputType.INTEGER, new String[] {keys.lockKey()}, hold.holdId());
    }

    @Override
    public CompletableFuture<ReleaseReply> releaseYielding(LockKeys keys, String holderId, String holdId,
                                                          long yieldMillis, boolean subscribed) {
        return unlock(false, keys, holderId, holdId, "yield", clientId, Long.toString(yieldMillis), subscribed ? "1" : "0");
    }

    @Override
    public CompletableFuture<ReleaseReply> releaseKeeping(LockKeys keys, String holderId, String holdId,
                                                         long keepMillis) {
        return unlock(false, keys, holderId, holdId, "keep", Long.toString(keepMillis));
    }

    @Override
    public CompletableFuture<Long> forceUnlock(LockKeys keys, String callId) {
        return scripts.run(Scripts.FORCE_UNLOCK, ScriptOutputType.INTEGER,
                new String[] {keys.lockKey(), keys.channel(), keys.forceUnlockAnswer(callId)}, UNLOCK_MESSAGE,
                scripts.publishCommand(), Long.toString(FORCE_UNLOCK_ANSWER_KEPT_MILLIS));
    }

    @Override
    public CompletableFuture<Long> handOff(LockKeys keys, HoldRef from, HoldRef to, long leaseMillis) {
        return scripts.run(Scripts.HAND_OFF, ScriptOutputType.INTEGER,
                new String[] {keys.lockKey(), keys.answerBook(), keys.previousAnswerBook()}, from.holderId(),
                from.holdId(), to.holderId(), to.holdId(), Long.toString(leaseMillis),
                Long.toString(answers.keptMillis()), answers.takeRead(keys));
    }

    @Override
    public boolean canKeep() {
        return true;
    }

    @Override
    public boolean canHandOff() {
        return !fenced;
    }

    @Override
    public CompletableFuture<List<Long>> renew(List<Hold> holds, List<String> holdIds, long leaseMillis) {
        String[] lockKeys = new String[holds.size()];
        for (int i = 0; i < holds.size(); i++) {
            lockKeys[i] = holds.get(i).keys().lockKey();
        }
        return scripts.runInOrder(Scripts.RENEW, ScriptOutputType.MULTI, lockKeys, Long.toString(leaseMillis),
                String.join(" ", holdIds));
    }
}

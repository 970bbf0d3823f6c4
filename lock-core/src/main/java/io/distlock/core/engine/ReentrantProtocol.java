package io.distlock.core.engine;

import io.distlock.core.pubsub.LockSubscriptions;
import io.distlock.core.scripts.ScriptExecutor;
import io.distlock.core.scripts.Scripts;
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
    private final String publishCommand;
    private final boolean fenced;

    /**
     * @param clientId       this client's id: a lock it yielded to the other clients stays taken
     *                       for its own holders until the yield ends ({@link #releaseYielding})
     * @param scripts        runs the lock scripts
     * @param publishCommand how scripts wake waiters: {@code publish}, or {@code spublish} (sharded)
     * @param fenced         whether every new hold takes a fencing token from the lock's counter
     *                       ({@code <lockKey>:fence}); fenced locks are not handed off, so every
     *                       hold goes through the counter
     */
    public ReentrantProtocol(String clientId, ScriptExecutor scripts, String publishCommand, boolean fenced) {
        this.clientId = clientId;
        this.scripts = scripts;
        this.publishCommand = publishCommand;
        this.fenced = fenced;
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
    public CompletableFuture<Long> release(LockKeys keys, String holderId, String holdId) {
        return scripts.run(Scripts.UNLOCK, ScriptOutputType.INTEGER,
                new String[] {keys.lockKey(), keys.channel()}, holderId, holdId, UNLOCK_MESSAGE, publishCommand);
    }

    @Override
    public CompletableFuture<Boolean> setLease(LockKeys keys, HoldRef hold, long leaseMillis, boolean exact) {
        return scripts.run(Scripts.LEASE, ScriptOutputType.BOOLEAN, new String[] {keys.lockKey(), keys.channel()},
                Long.toString(leaseMillis), hold.holdId(), exact ? "1" : "0", UNLOCK_MESSAGE, publishCommand,
                hold.holderId());
    }

    @Override
    public CompletableFuture<Long> releaseYielding(LockKeys keys, String holderId, String holdId, long yieldMillis,
                                                  boolean subscribed) {
        return scripts.run(Scripts.UNLOCK, ScriptOutputType.INTEGER,
                new String[] {keys.lockKey(), keys.channel()}, holderId, holdId, UNLOCK_MESSAGE, publishCommand,
                "yield", clientId, Long.toString(yieldMillis), subscribed ? "1" : "0");
    }

    @Override
    public CompletableFuture<Long> releaseKeeping(LockKeys keys, String holderId, String holdId, long keepMillis) {
        return scripts.run(Scripts.UNLOCK, ScriptOutputType.INTEGER,
                new String[] {keys.lockKey(), keys.channel()}, holderId, holdId, UNLOCK_MESSAGE, publishCommand,
                "keep", Long.toString(keepMillis));
    }

    @Override
    public CompletableFuture<Long> forceUnlock(LockKeys keys, String callId) {
        return scripts.run(Scripts.FORCE_UNLOCK, ScriptOutputType.INTEGER,
                new String[] {keys.lockKey(), keys.channel(), keys.forceUnlockAnswer(callId)}, UNLOCK_MESSAGE,
                publishCommand, Long.toString(FORCE_UNLOCK_ANSWER_KEPT_MILLIS));
    }

    @Override
    public CompletableFuture<Long> handOff(LockKeys keys, HoldRef from, HoldRef to, long leaseMillis) {
        return scripts.run(Scripts.HAND_OFF, ScriptOutputType.INTEGER, new String[] {keys.lockKey()},
                from.holderId(), from.holdId(), to.holderId(), to.holdId(), Long.toString(leaseMillis));
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
        String[] args = new String[holds.size() + 1];
        args[0] = Long.toString(leaseMillis);
        for (int i = 0; i < holds.size(); i++) {
            lockKeys[i] = holds.get(i).keys().lockKey();
            args[i + 1] = holdIds.get(i);
        }
        return scripts.run(Scripts.RENEW, ScriptOutputType.MULTI, lockKeys, args);
    }
}

package io.distlock.core.internal.engine;

import io.distlock.core.internal.pubsub.LockSubscriptions;
import io.distlock.core.internal.scripts.ScriptExecutor;
import io.distlock.core.internal.scripts.Scripts;
import io.lettuce.core.ScriptOutputType;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One half (read or write) of the read-write lock in Redis: a hash with the mode and a count per
 * holder ({@code r:<holder>}, {@code w:<holder>}), and a sorted set giving each reader's own lease
 * end by the server's clock. See {@code rw_lock.lua}, {@code rw_unlock.lua}, {@code rw_renew.lua},
 * {@code rw_lease.lua}.
 * Releases wake every local waiter, since several readers may get in at once.
 */
public final class ReadWriteProtocol implements LockProtocol {

    /** Suffix of the readers' sorted set. */
    static final String READERS = "readers";

    private final ScriptExecutor scripts;
    private final String mode;
    private final ReleaseAnswers answers;
    private final OwnLeases readers;

    /**
     * @param scripts          runs the lock scripts
     * @param write            the write half if {@code true}, else the read half
     * @param answers          where releases keep their answers, and which this client has read
     */
    public ReadWriteProtocol(ScriptExecutor scripts, boolean write, ReleaseAnswers answers) {
        this.scripts = scripts;
        this.mode = write ? "write" : "read";
        this.answers = answers;
        this.readers = new OwnLeases(scripts, READERS);
    }

    @Override
    public String type() {
        return mode;
    }

    @Override
    public String holderField(String holderId) {
        return mode.charAt(0) + ":" + holderId;
    }

    @Override
    public CompletableFuture<Attempt> tryAcquire(LockKeys keys, String holderId, long leaseMillis, String holdId,
                                                 boolean reentry) {
        CompletableFuture<List<Long>> reply = scripts.run(Scripts.RW_LOCK, ScriptOutputType.MULTI,
                new String[] {keys.lockKey(), keys.derived(READERS)}, Long.toString(leaseMillis), holderId, holdId,
                mode, reentry ? "1" : "0");
        return reply.thenCompose(r -> {
            if (r.get(0) == -1L) {
                return CompletableFuture.failedFuture(new IllegalMonitorStateException("Holder '" + holderId
                        + "' holds the read lock of '" + keys.lockKey() + "' and asked for its write lock: upgrading "
                        + "is not supported (it would deadlock against the other readers). Release the read lock "
                        + "first, or take the write lock from the start (a writer may take the read lock)."));
            }
            return CompletableFuture.completedFuture(Attempt.of(r));
        });
    }

    @Override
    public CompletableFuture<ReleaseReply> release(LockKeys keys, String holderId, String holdId) {
        return unlock(false, keys, holderId, holdId);
    }

    @Override
    public CompletableFuture<ReleaseReply> releaseInOrder(LockKeys keys, String holderId, String holdId) {
        return unlock(true, keys, holderId, holdId);
    }

    /** @param inOrder whether it must run before what is sent after it ({@link #releaseInOrder}) */
    private CompletableFuture<ReleaseReply> unlock(boolean inOrder, LockKeys keys, String holderId, String holdId) {
        String[] unlockKeys = {keys.lockKey(), keys.derived(READERS), keys.channel(), keys.answerBook(),
                keys.previousAnswerBook()};
        String[] args = {holderId, holdId, mode, LockSubscriptions.WAKE_ALL, scripts.publishCommand(),
                Long.toString(answers.keptMillis()), answers.takeRead(keys)};
        CompletableFuture<List<Long>> reply = scripts.run(inOrder, Scripts.RW_UNLOCK, ScriptOutputType.MULTI, unlockKeys,
                args);
        return reply.thenApply(ReleaseReply::of);
    }

    @Override
    public long answerKeptMillis() {
        return answers.keptMillis();
    }

    @Override
    public CompletableFuture<Boolean> setLease(LockKeys keys, HoldRef hold, long leaseMillis, boolean exact) {
        return scripts.run(Scripts.RW_LEASE, ScriptOutputType.BOOLEAN,
                new String[] {keys.lockKey(), keys.derived(READERS), keys.channel()}, Long.toString(leaseMillis),
                holderField(hold.holderId()), hold.holdId(), exact ? "1" : "0", LockSubscriptions.WAKE_ALL,
                scripts.publishCommand());
    }

    @Override
    public CompletableFuture<Long> leaseLeft(LockKeys keys, HoldRef hold) {
        return readers.leaseLeft(keys, hold, holderField(hold.holderId()));
    }

    @Override
    public CompletableFuture<Long> forceUnlock(LockKeys keys, String callId) {
        return readers.forceUnlock(keys, callId);
    }

    @Override
    public CompletableFuture<List<Long>> renew(List<Hold> holds, List<String> holdIds, long leaseMillis) {
        return readers.renew(holds, holdIds, leaseMillis, this::holderField);
    }
}

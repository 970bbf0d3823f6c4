package io.distlock.core.internal.engine;

import io.distlock.core.internal.scripts.ScriptExecutor;
import io.distlock.core.internal.scripts.Scripts;
import io.lettuce.core.ScriptOutputType;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The fair lock in Redis ({@code fair.lua}): the reentrant lock's hash, plus a queue of waiting
 * acquisitions (a place per hold id) with deadlines by the server's clock, which expires at most
 * one slot after the latest deadline it was given. Each client's waiters listen on a channel of their own
 * ({@code <lock channel>:<clientId>}). A release, or a new first in line, wakes at most the next
 * waiter and the one behind it (more, while those are waiters nobody listens for), and only those
 * whose sleep could otherwise last past the new turn: in a busy queue, a release. A lease that
 * runs out wakes nobody, so no waiter sleeps past the holder's lease. Leases are renewed like the
 * reentrant lock's. Never handed off locally: that would jump the queue.
 */
public final class FairProtocol implements LockProtocol {

    static final String QUEUE = "queue";
    static final String TIMEOUTS = "timeouts";
    static final String CLIENTS = "clients";

    private final ScriptExecutor scripts;
    private final long slotMillis;
    private final ReentrantProtocol holds;
    private final String clientId;

    /**
     * @param clientId       this client's id: its waiters listen on {@code <lock channel>:<clientId>}
     * @param scripts        runs the scripts
     * @param slotMillis     how long the next waiter has to take a free lock, and any waiter to
     *                       look again after its sleep, before it is considered gone (its process
     *                       died) and skipped
     * @param holds          the reentrant protocol, whose hash layout and renewal this lock shares
     */
    public FairProtocol(String clientId, ScriptExecutor scripts, long slotMillis,
                        ReentrantProtocol holds) {
        this.clientId = clientId;
        this.scripts = scripts;
        this.slotMillis = slotMillis;
        this.holds = holds;
    }

    @Override
    public String type() {
        return "fair";
    }

    @Override
    public String waitChannel(LockKeys keys, String waitingClient) {
        return channelPrefix(keys) + waitingClient;
    }

    @Override
    public CompletableFuture<Attempt> tryAcquire(LockKeys keys, String holderId, long leaseMillis, String holdId,
                                                 boolean reentry) {
        CompletableFuture<List<Long>> reply = run(ScriptOutputType.MULTI, keys, "lock", holderId,
                Long.toString(leaseMillis), holdId, reentry ? "1" : "0", clientId);
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

    /** @param inOrder whether it must run before what is sent after it ({@link #releaseInOrder}) */
    private CompletableFuture<ReleaseReply> unlock(boolean inOrder, LockKeys keys, String holderId, String holdId) {
        ReleaseAnswers answers = holds.answers();
        String[] unlockKeys = lockKeys(keys, keys.answerBook(), keys.previousAnswerBook());
        String[] args = arguments(keys, "unlock", holderId, holdId, Long.toString(answers.keptMillis()),
                answers.takeRead(keys));
        CompletableFuture<List<Long>> reply = scripts.run(inOrder, Scripts.FAIR, ScriptOutputType.MULTI, unlockKeys,
                args);
        return reply.thenApply(ReleaseReply::of);
    }

    @Override
    public long answerKeptMillis() {
        return holds.answerKeptMillis();
    }

    @Override
    public CompletableFuture<Boolean> setLease(LockKeys keys, HoldRef hold, long leaseMillis, boolean exact) {
        return run(ScriptOutputType.BOOLEAN, keys, "lease", hold.holderId(), Long.toString(leaseMillis),
                hold.holdId(), exact ? "1" : "0");
    }

    @Override
    public CompletableFuture<?> leave(LockKeys keys, String holdId) {
        return run(ScriptOutputType.INTEGER, keys, "leave", "", holdId);
    }

    @Override
    public CompletableFuture<Long> forceUnlock(LockKeys keys, String callId) {
        return scripts.run(Scripts.FAIR, ScriptOutputType.INTEGER,
                lockKeys(keys, keys.forceUnlockAnswer(callId)),
                arguments(keys, "force", "", Long.toString(FORCE_UNLOCK_ANSWER_KEPT_MILLIS)));
    }

    @Override
    public CompletableFuture<List<Long>> renew(List<Hold> batch, List<String> holdIds, long leaseMillis) {
        return holds.renew(batch, holdIds, leaseMillis);
    }

    @Override
    public CompletableFuture<Long> leaseLeft(LockKeys keys, HoldRef hold) {
        return holds.leaseLeft(keys, hold);
    }

    private <T> CompletableFuture<T> run(ScriptOutputType output, LockKeys keys, String operation, String holderId,
                                         String... more) {
        return scripts.run(Scripts.FAIR, output, lockKeys(keys), arguments(keys, operation, holderId, more));
    }

    /** @return fair.lua's KEYS: the lock's four keys, then {@code more} */
    private static String[] lockKeys(LockKeys keys, String... more) {
        String[] all = new String[4 + more.length];
        all[0] = keys.lockKey();
        all[1] = keys.derived(QUEUE);
        all[2] = keys.derived(TIMEOUTS);
        all[3] = keys.derived(CLIENTS);
        System.arraycopy(more, 0, all, 4, more.length);
        return all;
    }

    /** @return fair.lua's ARGV: the five every operation takes, then the operation's {@code more} */
    private String[] arguments(LockKeys keys, String operation, String holderId, String... more) {
        String[] args = new String[5 + more.length];
        args[0] = operation;
        args[1] = holderId;
        args[2] = Long.toString(slotMillis);
        args[3] = channelPrefix(keys);
        args[4] = scripts.publishCommand();
        System.arraycopy(more, 0, args, 5, more.length);
        return args;
    }

    private static String channelPrefix(LockKeys keys) {
        return keys.channel() + ":";
    }
}

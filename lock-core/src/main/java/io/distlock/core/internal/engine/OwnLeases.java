package io.distlock.core.internal.engine;

import io.distlock.core.internal.pubsub.LockSubscriptions;
import io.distlock.core.internal.scripts.ScriptExecutor;
import io.distlock.core.internal.scripts.Scripts;
import io.lettuce.core.ScriptOutputType;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;

/**
 * What the read-write lock and the semaphore share: a hash whose hold markers name their owner,
 * {@code r:<holder>} for a holder whose lease is its own (a reader, a semaphore holder), kept in a
 * sorted set beside the hash by the server's clock. {@code rw_renew.lua} renews such holds,
 * {@code lease_left.lua} reads them, and a force-unlock deletes the set with the hash.
 */
final class OwnLeases {

    private final ScriptExecutor scripts;
    private final String leasesSuffix;

    /**
     * @param scripts      runs the scripts
     * @param leasesSuffix suffix of the sorted set of own leases ({@link LockKeys#derived})
     */
    OwnLeases(ScriptExecutor scripts, String leasesSuffix) {
        this.scripts = scripts;
        this.leasesSuffix = leasesSuffix;
    }

    /** @return the hash and its sorted set of own leases */
    String[] keys(LockKeys keys) {
        return new String[] {keys.lockKey(), keys.derived(leasesSuffix)};
    }

    /**
     * Renews a batch of holds ({@link LockProtocol#renew}).
     *
     * @param markerOf what a holder's markers hold, from its holder id
     */
    CompletableFuture<List<Long>> renew(List<Hold> holds, List<String> holdIds, long leaseMillis,
                                        UnaryOperator<String> markerOf) {
        String[] keys = new String[holds.size() * 2];
        String[] args = new String[holds.size() * 2 + 1];
        args[0] = Long.toString(leaseMillis);
        for (int i = 0; i < holds.size(); i++) {
            Hold hold = holds.get(i);
            keys[2 * i] = hold.keys().lockKey();
            keys[2 * i + 1] = hold.keys().derived(leasesSuffix);
            args[2 * i + 1] = markerOf.apply(hold.holderId());
            args[2 * i + 2] = holdIds.get(i);
        }
        return scripts.runInOrder(Scripts.RW_RENEW, ScriptOutputType.MULTI, keys, args);
    }

    /**
     * @param marker what the hold's marker holds
     * @return what is left of the hold's lease ({@link LockProtocol#leaseLeft})
     */
    CompletableFuture<Long> leaseLeft(LockKeys keys, HoldRef hold, String marker) {
        return scripts.run(Scripts.LEASE_LEFT, ScriptOutputType.INTEGER, keys(keys), hold.holdId(), marker);
    }

    /** Deletes the hash and its own leases, and wakes every waiter ({@link LockProtocol#forceUnlock}). */
    CompletableFuture<Long> forceUnlock(LockKeys keys, String callId) {
        return scripts.run(Scripts.FORCE_UNLOCK, ScriptOutputType.INTEGER,
                new String[] {keys.lockKey(), keys.channel(), keys.forceUnlockAnswer(callId),
                        keys.derived(leasesSuffix)},
                LockSubscriptions.WAKE_ALL, scripts.publishCommand(),
                Long.toString(LockProtocol.FORCE_UNLOCK_ANSWER_KEPT_MILLIS));
    }
}
